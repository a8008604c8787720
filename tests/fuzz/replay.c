/*
 * A main() for fuzz targets built without libFuzzer: runs LLVMFuzzerTestOneInput over every
 * file named on the command line and every file in the directories named there (not
 * recursive, in name order so that a run is repeatable). Any contract violation aborts, so a
 * corpus replays as an ordinary test. Fails when there was no input at all, so that a wrong
 * corpus path cannot pass silently.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs larger than this are not fuzz inputs of ours. */
#define REPLAY_MAX_INPUT ((size_t)1 << 20)

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    uint8_t *buf = malloc(REPLAY_MAX_INPUT);
    if (!buf) {
        fclose(f);
        return -1;
    }
    const size_t n = fread(buf, 1, REPLAY_MAX_INPUT, f);
    const int too_big = fgetc(f) != EOF;
    fclose(f);
    if (too_big) {
        fprintf(stderr, "replay: %s is larger than %zu bytes\n", path, REPLAY_MAX_INPUT);
        free(buf);
        return -1;
    }
    /* An exact-size copy, so that a target reading past the input is caught by sanitizers. */
    uint8_t *input = malloc(n ? n : 1);
    if (!input) {
        free(buf);
        return -1;
    }
    memcpy(input, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(input, n);
    free(input);
    return 0;
}

static int replay_compare(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of a directory, in name order; returns the count or -1. */
static long replay_directory(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t count = 0, room = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (count == room) {
            room = room ? 2 * room : 64;
            char **grown = realloc(names, room * sizeof *names);
            if (!grown)
                break;
            names = grown;
        }
        const size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[count] = malloc(len);
        if (!names[count])
            break;
        snprintf(names[count++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (count)
        qsort(names, count, sizeof *names, replay_compare);
    long ran = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(names[i]) != 0)
                ran = -1;
            else if (ran >= 0)
                ran++;
        }
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    long total = 0;
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            failed = 1;
            continue;
        }
        const long n = S_ISDIR(st.st_mode) ? replay_directory(argv[i])
                                           : (replay_file(argv[i]) == 0 ? 1 : -1);
        if (n < 0)
            failed = 1;
        else
            total += n;
    }
    printf("replayed %ld inputs\n", total);
    if (total == 0)
        fprintf(stderr, "replay: no inputs (give corpus directories or files)\n");
    return failed || total == 0 ? 1 : 0;
}
