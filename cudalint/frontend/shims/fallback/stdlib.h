/* fallback/stdlib.h -- minimal <stdlib.h> (allocation, conversions, exit,
 * rand, qsort), used only when the platform has no C library. */
#ifndef CUDALINT_FALLBACK_STDLIB_H
#define CUDALINT_FALLBACK_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
extern "C" {
void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
void *aligned_alloc(size_t alignment, size_t size);
int posix_memalign(void **memptr, size_t alignment, size_t size);
void exit(int status) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));
int atexit(void (*func)(void));
char *getenv(const char *name);
int system(const char *command);
int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);
double atof(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
float strtof(const char *s, char **end);
double strtod(const char *s, char **end);
int rand(void);
void srand(unsigned int seed);
int abs(int x);
long labs(long x);
long long llabs(long long x);
void qsort(void *base, size_t nmemb, size_t size, int (*compar)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t nmemb, size_t size, int (*compar)(const void *, const void *));
}
#endif
