#include <cairo/cairo-pdf.h>
