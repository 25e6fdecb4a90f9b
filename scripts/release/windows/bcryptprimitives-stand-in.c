/* Test scaffolding for scripts/release/windows-smoke.sh, never shipped: Debian's wine 8 has no
 * bcryptprimitives.dll, whose ProcessPrng Rust's standard library uses on Windows since
 * 1.78. This stand-in forwards it to SystemFunction036 (RtlGenRandom, advapi32). */
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    return SystemFunction036(data, (ULONG)length);
}
