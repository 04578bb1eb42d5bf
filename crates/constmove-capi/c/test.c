/*
 * The C ABI from C: the chessprogramming wiki's six positions (counts and statistics read
 * from the published table, tests/data/perft/cpw_perft_results.csv, given as argv[1]), bad
 * FENs, null pointers, small buffers, illegal moves. Built by .ci/bindings with
 *   cc -std=c11 -Wall -Wextra -Werror -Iinclude test.c libconstmove_capi.a -lpthread -ldl -lm
 * Closes with "N passed, N failed"; exits 1 if any check failed.
 */
#include "constmove.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (cond) {                                                                       \
            passed++;                                                                     \
        } else {                                                                          \
            failed++;                                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                          \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
        }                                                                                 \
    } while (0)

/* Counts at most this many leaves per row, so the run takes seconds. */
#define MAX_NODES 200000000ull

static cm_position *from_fen(const char *fen) {
    cm_position *pos = NULL;
    char err[256];
    cm_status s = cm_position_from_fen(fen, &pos, err, sizeof err);
    CHECK(s == CM_OK && pos != NULL, "from_fen(%s): %d %s", fen, s, err);
    return pos;
}

/* One CSV row: position,fen,depth,nodes,captures,ep,castles,promotions,checks,
 * discovery_checks,double_checks,checkmates; an empty cell is unpublished (-1). */
static int parse_row(char *line, char *fen, size_t fen_len, unsigned *depth, long long v[9],
                     unsigned long long *nodes) {
    char *cells[12];
    int n = 0;
    char *p = line;
    while (n < 12) {
        cells[n++] = p;
        char *comma = strchr(p, ',');
        if (!comma) break;
        *comma = 0;
        p = comma + 1;
    }
    if (n < 4) return 0;
    cells[n - 1][strcspn(cells[n - 1], "\r\n")] = 0;
    snprintf(fen, fen_len, "%s", cells[1]);
    *depth = (unsigned)strtoul(cells[2], NULL, 10);
    *nodes = strtoull(cells[3], NULL, 10);
    for (int i = 0; i < 9; i++) {
        const char *cell = 3 + i < n ? cells[3 + i] : "";
        v[i] = *cell ? strtoll(cell, NULL, 10) : -1;
    }
    return 1;
}

static void wiki_positions(const char *csv) {
    FILE *f = fopen(csv, "r");
    CHECK(f != NULL, "cannot open %s", csv);
    if (!f) return;
    char line[512], fen[256];
    int rows = 0;
    fgets(line, sizeof line, f); /* header */
    while (fgets(line, sizeof line, f)) {
        unsigned depth;
        long long v[9];
        unsigned long long nodes;
        if (!parse_row(line, fen, sizeof fen, &depth, v, &nodes) || nodes > MAX_NODES) continue;
        rows++;
        cm_position *pos = from_fen(fen);
        if (!pos) continue;
        uint64_t got = 0;
        CHECK(cm_perft(pos, depth, 1, 0, &got) == CM_OK && got == nodes,
              "perft %u of %s: %" PRIu64 ", published %llu", depth, fen, got, nodes);
        CHECK(cm_perft(pos, depth, 2, 0, &got) == CM_OK && got == nodes,
              "perft %u on 2 threads of %s: %" PRIu64, depth, fen, got);
        CHECK(cm_perft(pos, depth, 1, 1 << 20, &got) == CM_OK && got == nodes,
              "hashed perft %u of %s: %" PRIu64, depth, fen, got);

        cm_move_count counts[CM_MAX_MOVES];
        size_t len = 0;
        uint64_t total = 0;
        CHECK(cm_divide(pos, depth, counts, CM_MAX_MOVES, &len) == CM_OK, "divide %s", fen);
        for (size_t i = 0; i < len; i++) total += counts[i].nodes;
        CHECK(total == nodes, "divide %u of %s sums to %" PRIu64, depth, fen, total);

        cm_stats st;
        CHECK(cm_perft_stats(pos, depth, 1, &st) == CM_OK, "stats %s", fen);
        const uint64_t got_stats[9] = {st.nodes,      st.captures,          st.en_passant,
                                       st.castles,    st.promotions,        st.checks,
                                       st.discovered_checks, st.double_checks, st.checkmates};
        /* Disputed (tests/data/README.md): the wiki's 2,637 double checks for Kiwipete at
         * depth 5, where independent generators count 2,645. */
        if (depth == 5 && strncmp(fen, "r3k2r/p1ppqpb1/", 15) == 0) v[7] = -1;
        for (int i = 0; i < 9; i++) {
            if (v[i] >= 0)
                CHECK(got_stats[i] == (uint64_t)v[i], "stats column %d of %s depth %u: %" PRIu64
                      ", published %lld", i, fen, depth, got_stats[i], v[i]);
        }
        if (depth == 1) {
            uint16_t moves[CM_MAX_MOVES];
            CHECK(cm_legal_moves(pos, moves, CM_MAX_MOVES, &len) == CM_OK && len == nodes,
                  "legal moves of %s: %zu", fen, len);
        }
        cm_position_free(pos);
    }
    fclose(f);
    CHECK(rows >= 24, "only %d rows of %s were used", rows, csv);
}

static void bad_fens(void) {
    /* Each bad FEN with a word its message must contain: the field it names. */
    static const char *cases[][2] = {
        {"", "missing"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "piece placement"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "piece placement"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en-passant"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", "fullmove"},
        {"8/8/8/8/8/8/8/8 w - - 0 1", "king"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "fields"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cm_position *pos = (cm_position *)1; /* must be reset to null */
        char err[256] = "";
        cm_status s = cm_position_from_fen(cases[i][0], &pos, err, sizeof err);
        CHECK(s == CM_ERR_FEN && pos == NULL && strstr(err, cases[i][1]) != NULL,
              "bad FEN '%s': status %d, message '%s' (expected one naming '%s')", cases[i][0], s,
              err, cases[i][1]);
    }
    /* A message cut to a small buffer is still a NUL-terminated string. */
    cm_position *pos = NULL;
    char small[8];
    memset(small, 'x', sizeof small);
    CHECK(cm_position_from_fen("nonsense", &pos, small, sizeof small) == CM_ERR_FEN &&
              strlen(small) == sizeof small - 1,
          "truncated message");
    CHECK(cm_position_from_fen("nonsense", &pos, NULL, 0) == CM_ERR_FEN, "null message buffer");
}

static void nulls_and_buffers(void) {
    cm_position *pos = NULL;
    uint64_t n;
    uint16_t mv;
    size_t len;
    int flag;
    char buf[128];
    CHECK(cm_position_from_fen(NULL, &pos, buf, sizeof buf) == CM_ERR_NULL, "null fen");
    CHECK(cm_position_from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1", NULL, NULL, 0) == CM_ERR_NULL,
          "null out");
    CHECK(cm_perft(NULL, 3, 1, 0, &n) == CM_ERR_NULL, "perft null position");
    CHECK(cm_legal_moves(NULL, &mv, 1, &len) == CM_ERR_NULL, "legal_moves null position");
    CHECK(cm_play(NULL, 0) == CM_ERR_NULL, "play null");
    CHECK(cm_zobrist(NULL, &n) == CM_ERR_NULL, "zobrist null");
    CHECK(cm_outcome(NULL, &flag) == CM_ERR_NULL, "outcome null");
    CHECK(cm_position_fen(NULL, buf, sizeof buf) == CM_ERR_NULL, "fen null");
    cm_position_free(NULL);

    CHECK(cm_position_startpos(&pos) == CM_OK, "startpos");
    CHECK(cm_perft(pos, 3, 1, 0, NULL) == CM_ERR_NULL, "perft null out");
    CHECK(cm_position_fen(pos, NULL, 10) == CM_ERR_NULL, "fen null buffer");
    CHECK(cm_zobrist(pos, &n) == CM_OK && n == 0x463B96181691FC9Cull,
          "start position's Polyglot key (published in the Polyglot book format): %" PRIx64, n);
    uint16_t few[5];
    CHECK(cm_legal_moves(pos, few, 5, &len) == CM_ERR_BUFFER && len == 20, "small move buffer");
    cm_move_count counts[3];
    CHECK(cm_divide(pos, 2, counts, 3, &len) == CM_ERR_BUFFER && len == 20, "small divide");
    CHECK(cm_divide(pos, 0, counts, 3, &len) == CM_OK && len == 0, "divide at depth 0");
    CHECK(cm_perft(pos, 0, 1, 0, &n) == CM_OK && n == 1, "perft 0");
    CHECK(cm_position_fen(pos, buf, 10) == CM_ERR_BUFFER && strlen(buf) == 9, "short FEN buffer");
    CHECK(cm_perft(pos, 3, 1, (size_t)1 << 62, &n) == CM_ERR_ALLOC, "absurd hash size");

    /* UCI in and out, checked and unchecked play, FEN out. */
    CHECK(cm_parse_uci(pos, "e2e4", &mv) == CM_OK && CM_MOVE_FROM(mv) == 12 &&
              CM_MOVE_TO(mv) == 28 && CM_MOVE_KIND(mv) == CM_MOVE_DOUBLE_PUSH,
          "parse e2e4: %u", mv);
    CHECK(cm_move_uci(mv, buf, sizeof buf) == CM_OK && strcmp(buf, "e2e4") == 0, "uci %s", buf);
    CHECK(cm_move_san(pos, mv, buf, sizeof buf) == CM_OK && strcmp(buf, "e4") == 0, "san %s", buf);
    CHECK(cm_parse_uci(pos, "e2e5", &mv) == CM_ERR_ILLEGAL_MOVE, "e2e5 is illegal");
    CHECK(cm_parse_uci(pos, "e2", &mv) == CM_ERR_MOVE_SYNTAX, "e2 is not UCI");
    CHECK(cm_play(pos, (uint16_t)(12 | 36 << 6)) == CM_ERR_ILLEGAL_MOVE, "play e2e5");
    CHECK(cm_play(pos, (uint16_t)(12 | 28 << 6 | 9 << 12)) == CM_ERR_ARGUMENT, "kind 9");
    CHECK(cm_move_uci((uint16_t)(9 << 12), buf, sizeof buf) == CM_ERR_ARGUMENT, "uci kind 9");
    CHECK(cm_position_fen(pos, buf, sizeof buf) == CM_OK &&
              strcmp(buf, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == 0,
          "an illegal move leaves the position: %s", buf);
    const char *game[] = {"f2f3", "e7e5", "g2g4", "d8h4"}; /* fool's mate */
    for (int i = 0; i < 4; i++) {
        CHECK(cm_parse_uci(pos, game[i], &mv) == CM_OK, "parse %s", game[i]);
        CHECK((i % 2 ? cm_play_unchecked(pos, mv) : cm_play(pos, mv)) == CM_OK, "play %s",
              game[i]);
    }
    CHECK(cm_is_check(pos, &flag) == CM_OK && flag == 1, "fool's mate is check");
    CHECK(cm_outcome(pos, &flag) == CM_OK && flag == CM_OUTCOME_BLACK_MATES, "outcome %d", flag);
    CHECK(cm_legal_moves(pos, few, 5, &len) == CM_OK && len == 0, "no moves after mate");
    CHECK(cm_position_fen(pos, buf, sizeof buf) == CM_OK &&
              strcmp(buf, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3") == 0,
          "FEN after fool's mate: %s", buf);
    cm_position *copy = NULL;
    uint64_t k1, k2;
    CHECK(cm_position_clone(pos, &copy) == CM_OK && cm_zobrist(pos, &k1) == CM_OK &&
              cm_zobrist(copy, &k2) == CM_OK && k1 == k2,
          "clone keeps the key");
    cm_position_free(copy);
    cm_position_free(pos);

    cm_position *kings = from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1");
    CHECK(cm_outcome(kings, &flag) == CM_OK && flag == CM_OUTCOME_INSUFFICIENT_MATERIAL,
          "bare kings: %d", flag);
    cm_position_free(kings);
    CHECK(strcmp(cm_version(), "") != 0, "version");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH/TO/cpw_perft_results.csv\n", argv[0]);
        return 2;
    }
    wiki_positions(argv[1]);
    bad_fens();
    nulls_and_buffers();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
