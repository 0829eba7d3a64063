// Why qrseal codes its parts with ISA-L: encode and decode throughput of ISA-L and
// liberasurecode at the sizes parts use (bench/README.md, "Messages in parts").
//   cc -O2 bench/erasure/compare.c -lisal -lerasurecode -o /tmp/ec-compare && /tmp/ec-compare
// Encode + decode throughput of ISA-L and liberasurecode at sizes qrseal parts use.
#include <isa-l/erasure_code.h>
#include <erasurecode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
static double isal(int k,int m,int len,int reps){
  int n=k+m; unsigned char *a=malloc(n*k),*g=malloc(k*m*32),*d[255],*p[255];
  for(int i=0;i<n;i++){d[i]=malloc(len);for(int j=0;j<len;j++)d[i][j]=rand();}
  double t=now();
  for(int r=0;r<reps;r++){gf_gen_cauchy1_matrix(a,n,k);ec_init_tables(k,m,a+k*k,g);ec_encode_data(len,k,m,g,d,d+k);
    // decode: lose the first m data parts, rebuild them from the rest
    unsigned char b[255*255],inv[255*255],rows[255*255],*src[255];
    for(int i=0;i<k;i++){int row=i+m; memcpy(b+i*k,a+row*k,k); src[i]=d[row];}
    gf_invert_matrix(b,inv,k); for(int i=0;i<m;i++)memcpy(rows+i*k,inv+i*k,k);
    ec_init_tables(k,m,rows,g); for(int i=0;i<m;i++)p[i]=malloc(len); ec_encode_data(len,k,m,g,src,p);
    if(r==0&&memcmp(p[0],d[0],len)){printf("isal decode mismatch\n");exit(1);} for(int i=0;i<m;i++)free(p[i]);}
  return (double)k*len*reps/(now()-t)/1e6;}
static double lec(int backend,int k,int m,int len,int reps){
  struct ec_args args={.k=k,.m=m,.hd=m}; int desc=liberasurecode_instance_create(backend,&args);
  if(desc<=0)return -1; char*data=malloc(k*len); for(int i=0;i<k*len;i++)data[i]=rand();
  double t=now();
  for(int r=0;r<reps;r++){char**ed,**ep;uint64_t fl;if(liberasurecode_encode(desc,data,k*len,&ed,&ep,&fl))return -2;
    char*avail[64];int c=0;for(int i=m;i<k;i++)avail[c++]=ed[i];for(int i=0;i<m;i++)avail[c++]=ep[i];
    char*out;uint64_t ol;if(liberasurecode_decode(desc,avail,c,fl,0,&out,&ol))return -3;
    if(r==0&&(ol!=(uint64_t)k*len||memcmp(out,data,ol))){printf("lec mismatch\n");exit(1);}
    if(r==0)printf("  liberasurecode fragment %llu bytes for %d of data\n",(unsigned long long)fl,len);
    liberasurecode_decode_cleanup(desc,out);liberasurecode_encode_cleanup(desc,ed,ep);}
  return (double)k*len*reps/(now()-t)/1e6;}
int main(){int len=2918;
  printf("ISA-L cauchy k=20 m=10: %.0f MB/s (encode+decode)\n",isal(20,10,len,200));
  printf("ISA-L cauchy k=170 m=85: %.0f MB/s\n",isal(170,85,len,20));
  printf("liberasurecode rs_vand k=20 m=10: %.0f MB/s\n",lec(EC_BACKEND_LIBERASURECODE_RS_VAND,20,10,len,200));
  printf("liberasurecode isa_l_rs_cauchy k=20 m=10: %.0f MB/s\n",lec(EC_BACKEND_ISA_L_RS_CAUCHY,20,10,len,200));
  printf("liberasurecode k=170 m=85: %d (limit EC_MAX_FRAGMENTS=%d)\n",(int)lec(EC_BACKEND_LIBERASURECODE_RS_VAND,170,85,len,1),EC_MAX_FRAGMENTS);}
