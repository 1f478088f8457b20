/* fallback/stddef.h -- minimal <stddef.h>, used only when neither the platform
 * nor the compiler provides one.  Types come from the compiler's predefines. */
#ifndef CUDALINT_FALLBACK_STDDEF_H
#define CUDALINT_FALLBACK_STDDEF_H
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#ifndef NULL
#define NULL __null
#endif
#ifndef offsetof
#define offsetof(t, m) __builtin_offsetof(t, m)
#endif
#endif
