// The platform's zlib: on Linux from the distribution's zlib development
// package (Debian and Ubuntu: zlib1g-dev), on Apple platforms from the SDK.
#include <zlib.h>
