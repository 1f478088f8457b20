/* fallback/cudalint_fallback_all.h -- used by the prelude only when the
 * platform has no C library (so the bundled libc++ cannot work either).
 *
 * Pulls in every minimal header of this directory now, and pre-defines the
 * include guards of the matching libc++ headers: because libc++ comes first
 * on the include path, a later `#include <vector>` still opens libc++'s file,
 * which then expands to nothing.
 */
#ifndef CUDALINT_FALLBACK_ALL_H
#define CUDALINT_FALLBACK_ALL_H

#define _LIBCPP_CSTDDEF
#define _LIBCPP_STDDEF_H
#define _LIBCPP_CSTDINT
#define _LIBCPP_CSTDLIB
#define _LIBCPP_STDLIB_H
#define _LIBCPP_CSTDIO
#define _LIBCPP_STDIO_H
#define _LIBCPP_CSTRING
#define _LIBCPP_STRING_H
#define _LIBCPP_CMATH
#define _LIBCPP_MATH_H
#define _LIBCPP_NEW
#define _LIBCPP_INITIALIZER_LIST
#define _LIBCPP_UTILITY
#define _LIBCPP_VECTOR
#define _LIBCPP_ARRAY
#define _LIBCPP_IOSTREAM
#define _LIBCPP_ALGORITHM
#define _LIBCPP_NUMERIC
#define _LIBCPP_MEMORY
#define _LIBCPP_CASSERT
#define _LIBCPP_CTIME

#include <stddef.h> /* compiler-provided, else fallback/stddef.h */
#include "cstddef"
#include "stdint.h"
#include "cstdint"
#include "stdlib.h"
#include "cstdlib"
#include "stdio.h"
#include "cstdio"
#include "string.h"
#include "cstring"
#include "math.h"
#include "cmath"
#include "new"
#include "initializer_list"
#include "utility"
#include "vector"
#include "array"
#include "iostream"
#include "algorithm"
#include "numeric"
#include "memory"
#include "assert.h"
#include "time.h"
#include "ctime"

#endif /* CUDALINT_FALLBACK_ALL_H */
