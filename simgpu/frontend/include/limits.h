/* simgpu: <limits.h> for NVRTC. The definitions are token for token those libcu++ makes under NVRTC
   (cuda/std/climits), so a kernel that also includes libcu++ or cooperative_groups.h compiles
   without redefinition warnings. */
#ifndef SIMGPU_LIMITS_H
#define SIMGPU_LIMITS_H
#define CHAR_BIT 8

#define SCHAR_MIN         (-128)
#define SCHAR_MAX         127
#define UCHAR_MAX         255
#define __CHAR_UNSIGNED__ ('\xff' > 0) // CURSED
#if __CHAR_UNSIGNED__
#  define CHAR_MIN 0
#  define CHAR_MAX UCHAR_MAX
#else
#  define CHAR_MIN SCHAR_MIN
#  define CHAR_MAX SCHAR_MAX
#endif
#define SHRT_MIN  (-SHRT_MAX - 1)
#define SHRT_MAX  0x7fff
#define USHRT_MAX 0xffff
#define INT_MIN   (-INT_MAX - 1)
#define INT_MAX   0x7fffffff
#define UINT_MAX  0xffffffff
#define LONG_MIN  (-LONG_MAX - 1)
#ifdef __LP64__
#  define LONG_MAX  LLONG_MAX
#  define ULONG_MAX ULLONG_MAX
#else
#  define LONG_MAX  INT_MAX
#  define ULONG_MAX UINT_MAX
#endif
#define LLONG_MIN  (-LLONG_MAX - 1)
#define LLONG_MAX  0x7fffffffffffffffLL
#define ULLONG_MAX 0xffffffffffffffffUL
#define MB_LEN_MAX 16
#endif
