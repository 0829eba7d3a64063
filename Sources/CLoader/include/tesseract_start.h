#ifndef QRSEAL_TESSERACT_START_H
#define QRSEAL_TESSERACT_START_H

/* Starts `handle` (a TessBaseAPI *) with `language` from `datapath`, LSTM engine only
 * (TessBaseAPIInit2 with OEM_LSTM_ONLY): 0 when it started, -1 when Tesseract refused the
 * data, -2 when it gave up on it with a failed assertion, which would abort the process
 * (a damaged network in a data file). After -2 the handle is half-made: never use, end or
 * delete it. */
int qrseal_tesseract_start(void *handle, const char *datapath, const char *language);

/* 1 once a Tesseract started in this process has skipped its legacy engine's table of
 * universal ambiguities (see tesseract.c), 0 before, or when libtesseract binds its own. */
int qrseal_tesseract_skipped_ambiguities(void);

#endif
