/*
 * constmove.h - the C ABI of constmove, a legal chess move generator and perft core.
 *
 * Link libconstmove_capi.a (with -lpthread -ldl -lm) or libconstmove_capi.so, both built by
 * `cargo build --release -p constmove-capi` into target/release/.
 *
 * Every function but cm_version and cm_position_free returns a cm_status: CM_OK (0) or a
 * CM_ERR_* code. Null pointers are refused with CM_ERR_NULL; a panic inside the library is
 * stopped at the boundary and returned as CM_ERR_PANIC. The only allocation handed out is
 * the position (cm_position_free releases it); text is written into the caller's buffers,
 * NUL-terminated whenever the buffer has at least one byte.
 *
 * A position may be read from many threads at once; a function that changes it (cm_play,
 * cm_play_unchecked) needs it to itself.
 *
 * Moves are 16 bits: origin square in bits 0-5 (a1 = 0, b1 = 1, ..., h8 = 63), destination
 * in bits 6-11, kind (CM_MOVE_*) in bits 12-15. Castling goes from the king's square to its
 * destination (e1g1) in standard chess and to the castling rook (e1h1) in Chess960.
 *
 * crates/constmove-capi/tests/header.rs checks this file against the library: every
 * function, every constant's value, and the structs' layout (also asserted below).
 */
#ifndef CONSTMOVE_H
#define CONSTMOVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
typedef int cm_status;
#define CM_OK 0
#define CM_ERR_NULL 1          /* a required pointer was null */
#define CM_ERR_FEN 2           /* the FEN was rejected; the message names the field */
#define CM_ERR_MOVE_SYNTAX 3   /* a move's text is not UCI (e2e4, e7e8q) */
#define CM_ERR_ILLEGAL_MOVE 4  /* the move is not legal in the position */
#define CM_ERR_BUFFER 5        /* the caller's buffer is too small */
#define CM_ERR_ARGUMENT 6      /* an argument is out of range (unknown move kind bits) */
#define CM_ERR_ALLOC 7         /* the hash table could not be allocated */
#define CM_ERR_INCOMPLETE 8    /* a threaded count did not finish */
#define CM_ERR_PANIC 9         /* a bug in the library, stopped at the boundary */

/* Move kinds, bits 12-15 of a move. */
#define CM_MOVE_NORMAL 0
#define CM_MOVE_DOUBLE_PUSH 1
#define CM_MOVE_CASTLE 2
#define CM_MOVE_EN_PASSANT 3
#define CM_MOVE_PROMOTE_KNIGHT 4
#define CM_MOVE_PROMOTE_BISHOP 5
#define CM_MOVE_PROMOTE_ROOK 6
#define CM_MOVE_PROMOTE_QUEEN 7

/* Outcomes (cm_outcome). Repetition is the caller's: compare cm_zobrist keys. */
#define CM_OUTCOME_NONE 0
#define CM_OUTCOME_WHITE_MATES 1
#define CM_OUTCOME_BLACK_MATES 2
#define CM_OUTCOME_STALEMATE 3
#define CM_OUTCOME_INSUFFICIENT_MATERIAL 4
#define CM_OUTCOME_FIFTY_MOVES 5

/* The most legal moves any position has: a move buffer this long always suffices. */
#define CM_MAX_MOVES 218

/* Parts of a 16-bit move. */
#define CM_MOVE_FROM(m) ((unsigned)(m) & 63u)
#define CM_MOVE_TO(m) (((unsigned)(m) >> 6) & 63u)
#define CM_MOVE_KIND(m) ((unsigned)(m) >> 12)

/* A position (opaque). */
typedef struct cm_position cm_position;

/* The chessprogramming wiki's perft statistics of the last ply. */
typedef struct cm_stats {
    uint64_t nodes;
    uint64_t captures;          /* en passant included */
    uint64_t en_passant;
    uint64_t castles;
    uint64_t promotions;
    uint64_t checks;            /* mates included */
    uint64_t discovered_checks; /* single discovered checks */
    uint64_t double_checks;
    uint64_t checkmates;
} cm_stats;

/* One root move and its subtree's leaves (cm_divide). */
typedef struct cm_move_count {
    uint64_t nodes;
    uint16_t move;
} cm_move_count;

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(cm_stats) == 72, "cm_stats is nine uint64_t");
_Static_assert(sizeof(cm_move_count) == 16, "cm_move_count is 16 bytes");
_Static_assert(offsetof(cm_move_count, move) == 8, "cm_move_count.move follows nodes");
#endif

/* The library's version, a static string. */
const char *cm_version(void);

/* Parses fen into a new position at *out (null on error). On CM_ERR_FEN the reason, naming
 * the FEN field, is copied into err (err_len bytes; err may be null). */
cm_status cm_position_from_fen(const char *fen, cm_position **out, char *err, size_t err_len);
/* The standard starting position, new at *out. */
cm_status cm_position_startpos(cm_position **out);
/* A copy of pos, new at *out. */
cm_status cm_position_clone(const cm_position *pos, cm_position **out);
/* Frees a position; null is ignored. */
void cm_position_free(cm_position *pos);

/* The leaves of the legal move tree depth plies deep into *nodes. threads 0 or 1 counts on
 * the calling thread, more splits the tree over that many; hash_bytes > 0 counts through a
 * transposition table of about that size, freed before returning. */
cm_status cm_perft(const cm_position *pos, uint32_t depth, uint32_t threads, size_t hash_bytes,
                   uint64_t *nodes);
/* Each legal root move with its perft at depth - 1, into out[0..cap) in legal-move order;
 * *len = the number of root moves (also on CM_ERR_BUFFER). */
cm_status cm_divide(const cm_position *pos, uint32_t depth, cm_move_count *out, size_t cap,
                    size_t *len);
/* The perft statistics of the tree depth plies deep, on threads as cm_perft. */
cm_status cm_perft_stats(const cm_position *pos, uint32_t depth, uint32_t threads,
                         cm_stats *out);

/* The legal moves into moves[0..cap); *len = their number (also on CM_ERR_BUFFER). */
cm_status cm_legal_moves(const cm_position *pos, uint16_t *moves, size_t cap, size_t *len);
/* The legal move written uci (e2e4, e7e8q) into *move. */
cm_status cm_parse_uci(const cm_position *pos, const char *uci, uint16_t *move);
/* Plays move if legal; else CM_ERR_ILLEGAL_MOVE and pos is unchanged. */
cm_status cm_play(cm_position *pos, uint16_t move);
/* Plays move unchecked (a move from cm_legal_moves of pos): the fast path. */
cm_status cm_play_unchecked(cm_position *pos, uint16_t move);

/* The UCI text of move into buf (6 bytes suffice). */
cm_status cm_move_uci(uint16_t move, char *buf, size_t len);
/* The SAN of the legal move in pos into buf (16 bytes suffice). */
cm_status cm_move_san(const cm_position *pos, uint16_t move, char *buf, size_t len);
/* The FEN of pos into buf (128 bytes suffice). */
cm_status cm_position_fen(const cm_position *pos, char *buf, size_t len);
/* The Polyglot Zobrist key of pos. */
cm_status cm_zobrist(const cm_position *pos, uint64_t *key);
/* 1 if the side to move is in check, else 0. */
cm_status cm_is_check(const cm_position *pos, int *check);
/* What the position alone decides: a CM_OUTCOME_* code. */
cm_status cm_outcome(const cm_position *pos, int *outcome);

#ifdef __cplusplus
}
#endif

#endif /* CONSTMOVE_H */
