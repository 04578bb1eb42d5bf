/*
 * Perft through the C ABI, single thread: `bench FEN DEPTH` prints `nodes N` and
 * `seconds S` as the CLI's `constmove perft` does. c/bench.sh runs it interleaved with the
 * CLI on the wiki's six positions.
 */
#define _POSIX_C_SOURCE 199309L
#include "constmove.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s FEN DEPTH\n", argv[0]);
        return 2;
    }
    cm_position *pos = NULL;
    char err[256];
    if (cm_position_from_fen(argv[1], &pos, err, sizeof err) != CM_OK) {
        fprintf(stderr, "bench: %s\n", err);
        return 1;
    }
    struct timespec t0, t1;
    uint64_t nodes = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cm_status s = cm_perft(pos, (uint32_t)atoi(argv[2]), 1, 0, &nodes);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cm_position_free(pos);
    if (s != CM_OK) {
        fprintf(stderr, "bench: status %d\n", s);
        return 1;
    }
    printf("nodes %" PRIu64 "\nseconds %.6f\n", nodes,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
