/* Shared by the fuzz harnesses (fuzz/fuzz_*.c): the engine's readers take
 * paths, so each input is written to a per-process scratch file with the
 * extension the reader expects, in /dev/shm when it exists (no disk I/O).
 * Logging is cut to errors so the fuzzer's own output stays readable. */
#ifndef VKMD_FUZZ_INPUT_H
#define VKMD_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("VKMD_LOG", "error", 0);
    return 0;
}

/* Writes the input to a scratch file ending `ext` (".prmtop") and returns
 * its path (static storage), or NULL if it cannot be written. */
static inline const char *fuzz_input_file(const uint8_t *data, size_t size, const char *ext)
{
    static char path[256];
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(path, sizeof path, "%s/vkmd_fuzz_%ld%s", dir, (long)getpid(), ext);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    const int ok = fwrite(data, 1, size, f) == size;
    if (fclose(f) != 0 || !ok)
        return NULL;
    return path;
}

/* The input as a NUL-terminated string (caller frees), or NULL. */
static inline char *fuzz_input_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return NULL;
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

#endif
