/*
 * The vertex side's internal headers in one include, for the tests and the benchmark, which
 * check plans, kernels and the execute call directly (through dsp.h). The library's sources
 * include the header of what they use. Not installed.
 */
#ifndef VFETCH_INTERNAL_H
#define VFETCH_INTERNAL_H

#include "execute.h"       /* the execute call and the validated draw */
#include "kernel.h"        /* the kernel signatures */
#include "plan_internal.h" /* the compiled plan */
#include "text.h"          /* the describe calls' text builder */
#include "vertex_format.h" /* the format table and valid pairs */

#endif
