// benchmark-c: the C API of benchmark_c.h over Google Benchmark. Kept minimal on purpose:
// every benchmark of the project is C; this file only forwards.
#include "benchmark_c.h"

#include <benchmark/benchmark.h>

#include <string>

struct bmc_state {
    benchmark::State *state;
};

namespace {

benchmark::internal::Benchmark *register_one(const char *name, bmc_fn fn, void *user)
{
    if (!name || !fn)
        return nullptr;
    return benchmark::RegisterBenchmark(name, [fn, user](benchmark::State &st) {
        bmc_state wrapped{ &st };
        fn(&wrapped, user);
    });
}

} // namespace

extern "C" {

int bmc_register(const char *name, bmc_fn fn, void *user)
{
    return register_one(name, fn, user) ? 0 : -1;
}

int bmc_register_min_time(const char *name, bmc_fn fn, void *user, double min_time)
{
    benchmark::internal::Benchmark *b = register_one(name, fn, user);
    if (!b)
        return -1;
    b->MinTime(min_time);
    return 0;
}

int bmc_keep_running(bmc_state *state)
{
    return state->state->KeepRunning() ? 1 : 0;
}

int64_t bmc_iterations(const bmc_state *state)
{
    return static_cast<int64_t>(state->state->iterations());
}

void bmc_pause_timing(bmc_state *state)
{
    state->state->PauseTiming();
}

void bmc_resume_timing(bmc_state *state)
{
    state->state->ResumeTiming();
}

void bmc_set_bytes_processed(bmc_state *state, int64_t bytes)
{
    state->state->SetBytesProcessed(bytes);
}

void bmc_set_items_processed(bmc_state *state, int64_t items)
{
    state->state->SetItemsProcessed(items);
}

void bmc_set_counter(bmc_state *state, const char *name, double value, enum bmc_counter_flags flags)
{
    int f = benchmark::Counter::kDefaults;
    if (flags & BMC_COUNTER_RATE)
        f |= benchmark::Counter::kIsRate;
    if (flags & BMC_COUNTER_ITERATION_AVG)
        f |= benchmark::Counter::kAvgIterations;
    if (flags & BMC_COUNTER_INVERT)
        f |= benchmark::Counter::kInvert;
    state->state->counters[std::string(name)] =
        benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(f));
}

void bmc_set_label(bmc_state *state, const char *label)
{
    state->state->SetLabel(label);
}

void bmc_skip_with_error(bmc_state *state, const char *message)
{
    state->state->SkipWithError(message);
}

int bmc_main(int argc, char **argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // extern "C"
