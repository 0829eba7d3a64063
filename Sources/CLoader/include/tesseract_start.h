#ifndef QRSEAL_TESSERACT_START_H
#define QRSEAL_TESSERACT_START_H

/* Starts `handle` (a TessBaseAPI *) with `language` from `datapath`, LSTM engine only
 * (TessBaseAPIInit2 with OEM_LSTM_ONLY): 0 when it started, -1 when Tesseract refused the
 * data. Damaged data may abort or hang the process instead: start only on data that has
 * started in the qrseal-engine helper first (qrseal_engine.h). */
int qrseal_tesseract_start(void *handle, const char *datapath, const char *language);

/* 1 once a Tesseract started in this process has skipped its legacy engine's table of
 * universal ambiguities (see tesseract.c), 0 before, or when libtesseract binds its own. */
int qrseal_tesseract_skipped_ambiguities(void);

#endif
