// benchmark-c: the C API of benchmark_c.h over Google Benchmark. Kept minimal on purpose:
// every benchmark of the project is C; this file only forwards.
#include "benchmark_c.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BMC_HAVE_CALLGRIND 1
#endif
#endif
#ifndef BMC_HAVE_CALLGRIND
#define RUNNING_ON_VALGRIND 0
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

// A benchmark run by Google Benchmark (state set), or counted by bmc_callcost (state null:
// the loop runs `warmup` then `measured` iterations, instructions counted around the latter).
struct bmc_state {
    benchmark::State *state;
    int64_t done, warmup, measured;
    int perf_fd;          // an instruction counter (perf_event_open), or -1
    bool callgrind;       // under callgrind: collect around the measured iterations
    const char *name;     // the dump's name under callgrind
    uint64_t instructions; // counted (perf), after the loop
    bool skipped;
};

namespace {

struct registered {
    std::string name;
    bmc_fn fn;
    void *user;
};

std::vector<registered> &registry()
{
    static std::vector<registered> r;
    return r;
}

benchmark::internal::Benchmark *register_one(const char *name, bmc_fn fn, void *user)
{
    if (!name || !fn)
        return nullptr;
    registry().push_back({ name, fn, user });
    return benchmark::RegisterBenchmark(name, [fn, user](benchmark::State &st) {
        bmc_state wrapped{ &st, 0, 0, 0, -1, false, nullptr, 0, false };
        fn(&wrapped, user);
    });
}

int open_instruction_counter()
{
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
}

void counting_start(bmc_state *s)
{
    if (s->callgrind) {
        CALLGRIND_ZERO_STATS;
        CALLGRIND_TOGGLE_COLLECT;
    } else if (s->perf_fd >= 0) {
        ioctl(s->perf_fd, PERF_EVENT_IOC_RESET, 0);
        ioctl(s->perf_fd, PERF_EVENT_IOC_ENABLE, 0);
    }
}

void counting_stop(bmc_state *s)
{
    if (s->callgrind) {
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_DUMP_STATS_AT(s->name);
    } else if (s->perf_fd >= 0) {
        ioctl(s->perf_fd, PERF_EVENT_IOC_DISABLE, 0);
        uint64_t v = 0;
        if (read(s->perf_fd, &v, sizeof v) == static_cast<ssize_t>(sizeof v))
            s->instructions = v;
    }
}

// The loop cost of an empty benchmark, subtracted from every measurement.
void empty_body(bmc_state *st, void *)
{
    while (bmc_keep_running(st)) {
    }
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
    if (state->state)
        return state->state->KeepRunning() ? 1 : 0;
    if (state->skipped)
        return 0;
    if (state->done == state->warmup)
        counting_start(state);
    if (state->done == state->warmup + state->measured) {
        counting_stop(state);
        return 0;
    }
    state->done++;
    return 1;
}

int64_t bmc_iterations(const bmc_state *state)
{
    return state->state ? static_cast<int64_t>(state->state->iterations()) : state->done;
}

void bmc_pause_timing(bmc_state *state)
{
    if (state->state)
        state->state->PauseTiming();
}

void bmc_resume_timing(bmc_state *state)
{
    if (state->state)
        state->state->ResumeTiming();
}

void bmc_set_bytes_processed(bmc_state *state, int64_t bytes)
{
    if (state->state)
        state->state->SetBytesProcessed(bytes);
}

void bmc_set_items_processed(bmc_state *state, int64_t items)
{
    if (state->state)
        state->state->SetItemsProcessed(items);
}

void bmc_set_counter(bmc_state *state, const char *name, double value, enum bmc_counter_flags flags)
{
    if (!state->state)
        return;
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
    if (state->state)
        state->state->SetLabel(label);
}

void bmc_skip_with_error(bmc_state *state, const char *message)
{
    if (state->state) {
        state->state->SkipWithError(message);
    } else {
        state->skipped = true;
        std::fprintf(stderr, "callcost: %s: %s\n", state->name, message);
    }
}

int bmc_callcost(const char *filter, int64_t (*calls_for)(const char *name))
{
    std::regex re;
    try {
        re = std::regex(filter && *filter ? filter : ".");
    } catch (const std::regex_error &) {
        std::fprintf(stderr, "callcost: not a regular expression: %s\n", filter);
        return 1;
    }
    const bool callgrind = RUNNING_ON_VALGRIND != 0;
    const int fd = callgrind ? -1 : open_instruction_counter();
    if (!callgrind && fd < 0) {
        std::fprintf(stderr, "callcost: no instruction counter here (perf_event_open failed); "
                             "run it under callgrind: tools/callcost.sh\n");
        return 2;
    }
    std::printf("# callcost: instructions per call (%s), the loop's own cost subtracted\n",
                callgrind ? "callgrind: one dump per line, tools/callcost.sh reads them"
                          : "perf_event_open, user space");
    std::printf("# name calls instructions_total\n");
    auto measure = [&](const char *name, bmc_fn fn, void *user, int64_t calls) {
        bmc_state st{ nullptr, 0, calls > 10 ? 10 : calls, calls, fd, callgrind, name, 0, false };
        fn(&st, user);
        std::printf("%s %lld %llu%s\n", name, static_cast<long long>(calls),
                    static_cast<unsigned long long>(st.instructions), st.skipped ? " skipped" : "");
        std::fflush(stdout);
    };
    measure("harness/empty-loop", empty_body, nullptr, 1000);
    for (const registered &r : registry())
        if (std::regex_search(r.name, re))
            measure(r.name.c_str(), r.fn, r.user, calls_for(r.name.c_str()));
    if (fd >= 0)
        close(fd);
    return 0;
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
