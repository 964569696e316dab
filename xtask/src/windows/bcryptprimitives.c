/* Wine 8 (Debian 12) lacks bcryptprimitives.dll, whose ProcessPrng Rust's std on Windows
 * draws its randomness from (a test binary then fails to start: status c0000135). This
 * stand-in gives the same answer through RtlGenRandom; `cargo xtask check-windows` builds it
 * with MinGW into its own Wine prefix only, and only when Wine has none. */
#include <windows.h>
#include <ntsecapi.h>
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) return FALSE;
        data += chunk; len -= chunk;
    }
    return TRUE;
}
