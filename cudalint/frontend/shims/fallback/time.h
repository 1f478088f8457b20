/* fallback/time.h -- minimal <time.h> (clock, time), used only when the
 * platform has no C library. */
#ifndef CUDALINT_FALLBACK_TIME_H
#define CUDALINT_FALLBACK_TIME_H
typedef long clock_t;
typedef long time_t;
#define CLOCKS_PER_SEC ((clock_t)1000000)
extern "C" {
clock_t clock(void);
time_t time(time_t *t);
double difftime(time_t end, time_t begin);
}
#endif
