/*
 * Reading a fuzz input: values are taken from the front of the byte string in a fixed order,
 * and an exhausted input reads as zeros. Every byte keeps its meaning when the fuzzer appends,
 * truncates or flips bytes, so mutations stay meaningful, and a short input is still a whole
 * (mostly default) test case.
 */
#ifndef VFETCH_FUZZ_INPUT_H
#define VFETCH_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct fuzz_input {
    const uint8_t *data;
    size_t size;
    size_t pos;
};

static inline struct fuzz_input fuzz_input_make(const uint8_t *data, size_t size)
{
    struct fuzz_input in = { data, size, 0 };
    return in;
}

/** Bytes not yet taken. */
static inline size_t fuzz_left(const struct fuzz_input *in)
{
    return in->size - in->pos;
}

/** Copy n bytes into to; past the end of the input, zeros. */
static inline void fuzz_bytes(struct fuzz_input *in, void *to, size_t n)
{
    const size_t have = fuzz_left(in) < n ? fuzz_left(in) : n;
    if (have)
        memcpy(to, in->data + in->pos, have);
    memset((uint8_t *)to + have, 0, n - have);
    in->pos += have;
}

static inline uint8_t fuzz_u8(struct fuzz_input *in)
{
    uint8_t v;
    fuzz_bytes(in, &v, 1);
    return v;
}

/* Multi-byte values are little-endian in the input on every host, so that a corpus file means
   the same on aarch64 and x86. */
static inline uint16_t fuzz_u16(struct fuzz_input *in)
{
    uint8_t b[2];
    fuzz_bytes(in, b, 2);
    return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t fuzz_u32(struct fuzz_input *in)
{
    uint8_t b[4];
    fuzz_bytes(in, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline uint64_t fuzz_u64(struct fuzz_input *in)
{
    const uint64_t lo = fuzz_u32(in);
    return lo | (uint64_t)fuzz_u32(in) << 32;
}

/** A byte reduced to 0..n-1 (n >= 1). */
static inline unsigned fuzz_below(struct fuzz_input *in, unsigned n)
{
    return fuzz_u8(in) % n;
}

/** A deterministic generator for bulk data (vertex bytes, indices) seeded from the input, so
    that a few input bytes describe a whole buffer. xorshift64*: cheap and good enough. */
struct fuzz_rng {
    uint64_t state;
};

static inline struct fuzz_rng fuzz_rng_make(uint64_t seed)
{
    struct fuzz_rng r = { seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull };
    if (!r.state)
        r.state = 1;
    return r;
}

static inline uint32_t fuzz_rng_next(struct fuzz_rng *r)
{
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return (uint32_t)((r->state * 0x2545F4914F6CDD1Dull) >> 32);
}

/** Fill a buffer: first with the input's remaining bytes (the fuzzer controls them), then
    from the generator. Consumes those input bytes. */
static inline void fuzz_fill(struct fuzz_input *in, struct fuzz_rng *r, uint8_t *to, size_t n)
{
    const size_t have = fuzz_left(in) < n ? fuzz_left(in) : n;
    fuzz_bytes(in, to, have);
    for (size_t i = have; i < n; i++)
        to[i] = (uint8_t)fuzz_rng_next(r);
}

#endif
