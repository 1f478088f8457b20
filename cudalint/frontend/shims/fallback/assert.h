/* fallback/assert.h -- minimal <assert.h>, used only when the platform has no
 * C library.  Like the real one it has no include guard (NDEBUG may change). */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
extern "C" void __assert_fail(const char *, const char *, unsigned int, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
#endif
