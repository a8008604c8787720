/*
 * benchmark-c: a small C API over Google Benchmark, so that vfetch's benchmarks are written in
 * C. The only C++ in the tree is benchmark_c.cc behind this header.
 *
 * Usage:
 *
 *     static void bench_copy(bmc_state *st, void *user)
 *     {
 *         struct job *job = user;
 *         while (bmc_keep_running(st))
 *             do_work(job);
 *         bmc_set_items_processed(st, bmc_iterations(st) * job->items);
 *         bmc_set_bytes_processed(st, bmc_iterations(st) * job->bytes);
 *     }
 *
 *     int main(int argc, char **argv)
 *     {
 *         bmc_register("family/what/isa/count", bench_copy, &job);
 *         return bmc_main(argc, argv);  // takes Google Benchmark's own flags
 *     }
 */
#ifndef BENCHMARK_C_H
#define BENCHMARK_C_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One running benchmark (wraps benchmark::State). Valid only inside the benchmark function. */
typedef struct bmc_state bmc_state;

/** A benchmark body: loop on bmc_keep_running(), then report what was processed. */
typedef void (*bmc_fn)(bmc_state *state, void *user);

/** Counter flags (a subset of benchmark::Counter::Flags). */
enum bmc_counter_flags {
    BMC_COUNTER_DEFAULT = 0,
    BMC_COUNTER_RATE = 1,          /**< divided by the elapsed time (per second) */
    BMC_COUNTER_ITERATION_AVG = 2, /**< divided by the number of iterations */
    BMC_COUNTER_INVERT = 4,        /**< reported as 1 / value (after the above): with RATE, a
                                        time per unit (seconds per item) */
};

/**
 * Register a benchmark under a name (copied). `user` is handed to every call of fn and must
 * outlive bmc_main(). Returns 0, or -1 on a NULL name or function.
 */
int bmc_register(const char *name, bmc_fn fn, void *user);

/** Like bmc_register(), with a minimum run time in seconds for this benchmark only. */
int bmc_register_min_time(const char *name, bmc_fn fn, void *user, double min_time);

/** True while the benchmark wants another iteration (the timed loop). */
int bmc_keep_running(bmc_state *state);

/** Iterations run so far (after the loop: all of them). */
int64_t bmc_iterations(const bmc_state *state);

/** Stop and restart the timer around untimed work inside the loop. */
void bmc_pause_timing(bmc_state *state);
void bmc_resume_timing(bmc_state *state);

/** Totals over all iterations; reported as bytes/s and items/s. */
void bmc_set_bytes_processed(bmc_state *state, int64_t bytes);
void bmc_set_items_processed(bmc_state *state, int64_t items);

/** A user counter (name copied), shown as a column and in the JSON output. */
void bmc_set_counter(bmc_state *state, const char *name, double value, enum bmc_counter_flags flags);

/** A free-text label for this run. */
void bmc_set_label(bmc_state *state, const char *label);

/** Mark the run failed with a message (call before or instead of the loop). */
void bmc_skip_with_error(bmc_state *state, const char *message);

/**
 * Initialise Google Benchmark with the command line (its own flags: --benchmark_filter,
 * --benchmark_format=json, --benchmark_min_time, --benchmark_repetitions, --benchmark_out,
 * ...), run the registered benchmarks, shut down. Returns 0, or 1 on an unrecognised flag.
 */
int bmc_main(int argc, char **argv);

/**
 * Instead of timing: count the instructions each registered benchmark whose name matches the
 * regular expression `filter` spends per loop iteration, the loop's own cost being that of an
 * empty benchmark (printed first, as harness/empty-loop). Each runs 10 warm-up iterations,
 * then calls_for(name) counted ones. Counted with perf_event_open (user space), or, under
 * callgrind, as one stats dump per benchmark (tools/callcost.sh runs it so and reads them).
 * Prints "name calls instructions_total" lines (total 0 under callgrind). Returns 0, 1 on a
 * bad filter, 2 when there is no counter.
 */
int bmc_callcost(const char *filter, int64_t (*calls_for)(const char *name));

#ifdef __cplusplus
}
#endif

#endif
