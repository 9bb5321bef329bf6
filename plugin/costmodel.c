// SPDX-License-Identifier: GPL-2.0
/*
 * costmodel: a QEMU TCG plugin that counts, per vCPU and only inside the
 * timed sections a guest marks, what an instruction count cannot see:
 * locked read-modify-writes, misses of a simulated L1D and L2, and cache
 * lines that move from one vCPU to another.
 *
 * The guest marks a section with 8-byte NOPs, "nopl MARK+op(%rax,%rax,1)"
 * (0f 1f 84 00 and the displacement), which no compiler or kernel emits:
 *   START   counting starts after this instruction, on this vCPU
 *   STOP    counting stops on this vCPU; the section is pending
 *   KEEP    the pending section is added to the report's totals
 *   DROP    the pending section is thrown away (a tick interrupted it)
 *   REPORT  one "costmodel:" line with the totals, which are then cleared
 *   BEGIN   the guest's report numbering starts again (module load)
 *   ALL_START  every vCPU counts from here, whatever it runs (a workload
 *              such as pktgen, whose TX completion runs where the NIC's
 *              interrupt goes)
 *   ALL_STOP   every vCPU stops; together they are one section, kept
 * The plugin API of QEMU 7.2 cannot read guest registers or write guest
 * memory, so the guest learns nothing back: it numbers its reports as the
 * plugin does (seq=), and the harness pairs the two lines.
 *
 * The caches are private to each vCPU, physically addressed, LRU, with
 * the geometry of the plugin's arguments (powers of two). A transfer is an access to a
 * line that another vCPU wrote last and this vCPU has not accessed since:
 * the line comes from the other core's cache, so it is counted as a
 * transfer and not as a miss, and fills this vCPU's caches. Instruction
 * fetches are not simulated; I/O accesses are not cached.
 *
 * Counts are exact under -icount, where QEMU runs every vCPU in one
 * thread (scripts/qemu.sh loads the plugin only there), for code that
 * runs its blocks to the end: a block left early (an exception, or I/O
 * that QEMU re-translates under -icount) has had all its instructions
 * counted on entry. Each "rep" iteration counts as an instruction.
 *
 * Arguments: l1_size, l1_ways, l2_size, l2_ways (bytes, ways), out=FILE
 * (default: standard error).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define LINE_SHIFT	6
#define MARK_BASE	0x5b0b1c00u
enum mark { START = 1, STOP, KEEP, DROP, REPORT, BEGIN, ALL_START, ALL_STOP, NR_MARKS };

struct counts {
	uint64_t insns, mem, io, atomics, l1d_miss, l2_miss, xfer;
};

/* A set-associative cache: tags[set * ways + i], most recent first. */
struct cache {
	uint64_t *tags;		/* line number + 1; 0 is an empty way */
	unsigned int sets, ways;
};

struct vcpu {
	bool counting;
	bool pending;		/* a stopped section not yet kept or dropped */
	struct counts sec;
	struct cache l1, l2;
};

/*
 * The line directory: per physical line, the vCPU that wrote it last (+1,
 * 0: none since boot) and the vCPUs that have read it since (a bit each).
 * Two levels, allocated as lines are first touched: 2^16 lines a chunk.
 */
struct line_state {
	uint8_t writer;
	uint8_t readers;
};
#define CHUNK_SHIFT	16
#define MAX_CHUNKS	(1u << 16)	/* 2^38 bytes of physical memory */
static struct line_state *dir[MAX_CHUNKS];

static struct vcpu *vcpus;
static int nr_vcpus;
static struct counts kept;
static uint64_t kept_sections, unbalanced, seq;
static bool all;		/* between ALL_START and ALL_STOP */
static FILE *out;
static uint64_t l1_size = 32 * 1024, l1_ways = 8, l2_size = 1024 * 1024, l2_ways = 16;

static void cache_init(struct cache *c, uint64_t size, uint64_t ways)
{
	c->ways = ways;
	c->sets = size >> LINE_SHIFT;
	c->sets /= ways;
	c->tags = calloc((size_t)c->sets * ways, sizeof(*c->tags));
	if (!c->tags)
		abort();
}

/* Looks @line up and makes it the most recent of its set; false: a miss. */
static bool cache_access(struct cache *c, uint64_t line)
{
	uint64_t *way = c->tags + (line & (c->sets - 1)) * c->ways;
	uint64_t tag = line + 1;
	unsigned int i;
	bool hit = false;

	for (i = 0; i < c->ways - 1; i++) {
		if (way[i] == tag) {
			hit = true;
			break;
		}
	}
	hit = hit || way[i] == tag;
	/* i is the way that goes: the hit, or the least recent. */
	memmove(way + 1, way, i * sizeof(*way));
	way[0] = tag;
	return hit;
}

static struct line_state *line_state(uint64_t line)
{
	uint64_t chunk = line >> CHUNK_SHIFT;
	struct line_state *s, *fresh;

	if (chunk >= MAX_CHUNKS)
		return NULL;
	s = __atomic_load_n(&dir[chunk], __ATOMIC_ACQUIRE);
	if (s)
		return s + (line & ((1u << CHUNK_SHIFT) - 1));
	fresh = calloc(1u << CHUNK_SHIFT, sizeof(*fresh));
	if (!fresh)
		abort();
	s = NULL;
	if (!__atomic_compare_exchange_n(&dir[chunk], &s, fresh, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		free(fresh);
		return s + (line & ((1u << CHUNK_SHIFT) - 1));
	}
	return fresh + (line & ((1u << CHUNK_SHIFT) - 1));
}

/* Updates the directory for an access; true: the line came from another vCPU. */
static bool line_moved(uint64_t line, unsigned int cpu, bool store)
{
	struct line_state *s = line_state(line);
	uint8_t bit = 1u << (cpu & 7);
	bool moved;

	if (!s)
		return false;
	moved = s->writer && s->writer != cpu + 1 && !(s->readers & bit);
	if (store) {
		s->writer = cpu + 1;
		s->readers = bit;
	} else {
		s->readers |= bit;
	}
	return moved;
}

static void access_line(struct vcpu *v, unsigned int cpu, uint64_t line, bool store)
{
	bool l1_hit, l2_hit = true;

	if (line_moved(line, cpu, store)) {
		cache_access(&v->l1, line);
		cache_access(&v->l2, line);
		if (v->counting)
			v->sec.xfer++;
		return;
	}
	l1_hit = cache_access(&v->l1, line);
	if (!l1_hit)
		l2_hit = cache_access(&v->l2, line);
	if (v->counting) {
		v->sec.l1d_miss += !l1_hit;
		v->sec.l2_miss += !l2_hit;
	}
}

static void mem_cb(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
		   void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	unsigned int size = 1u << qemu_plugin_mem_size_shift(info);
	bool store = qemu_plugin_mem_is_store(info);
	struct vcpu *v = &vcpus[cpu];
	uint64_t pa, line;

	if (v->counting)
		v->sec.mem++;
	/*
	 * Device memory is not cached. QEMU 7.2 also answers "I/O" for a RAM
	 * access whose TLB entry went away meanwhile: counted apart, so that
	 * a section that lost accesses says so.
	 */
	if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
		if (v->counting)
			v->sec.io++;
		return;
	}
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	/* An access that straddles two lines touches both. */
	for (line = pa >> LINE_SHIFT; line <= (pa + size - 1) >> LINE_SHIFT; line++)
		access_line(v, cpu, line, store);
}

static void tb_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu];

	if (v->counting)
		v->sec.insns += (uintptr_t)udata;
}

static void atomic_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu];

	if (v->counting)
		v->sec.atomics++;
}

static void print(const char *line)
{
	fputs(line, out);
	fflush(out);
}

static void report(void)
{
	char buf[320];

	snprintf(buf, sizeof(buf),
		 "costmodel: seq=%" PRIu64 " sections=%" PRIu64 " unbalanced=%" PRIu64
		 " insns=%" PRIu64 " mem=%" PRIu64 " io=%" PRIu64 " atomics=%" PRIu64
		 " l1d_miss=%" PRIu64 " l2_miss=%" PRIu64 " xfer=%" PRIu64 "\n",
		 seq, kept_sections, unbalanced, kept.insns, kept.mem, kept.io, kept.atomics,
		 kept.l1d_miss, kept.l2_miss, kept.xfer);
	print(buf);
	seq++;
	memset(&kept, 0, sizeof(kept));
	kept_sections = 0;
	unbalanced = 0;
}

static void keep(struct vcpu *v)
{
	kept.insns += v->sec.insns;
	kept.mem += v->sec.mem;
	kept.io += v->sec.io;
	kept.atomics += v->sec.atomics;
	kept.l1d_miss += v->sec.l1d_miss;
	kept.l2_miss += v->sec.l2_miss;
	kept.xfer += v->sec.xfer;
}

/*
 * A section that stops on another vCPU than it started on (the task
 * migrated) or is kept twice is counted as unbalanced: the harness then
 * rejects the report, as its counts are not the section's.
 */
static void mark_exec(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu];

	switch ((uintptr_t)udata) {
	case START:
		unbalanced += v->counting || v->pending;
		memset(&v->sec, 0, sizeof(v->sec));
		v->counting = true;
		v->pending = false;
		break;
	case STOP:
		unbalanced += !v->counting;
		v->counting = false;
		v->pending = true;
		break;
	case KEEP:
		if (!v->pending) {
			unbalanced++;
			break;
		}
		keep(v);
		kept_sections++;
		v->pending = false;
		break;
	case DROP:
		unbalanced += !v->pending;
		v->pending = false;
		break;
	case REPORT:
		report();
		break;
	case BEGIN:
		print("costmodel: begin\n");
		seq = 0;
		memset(&kept, 0, sizeof(kept));
		kept_sections = 0;
		unbalanced = 0;
		all = false;
		for (int i = 0; i < nr_vcpus; i++)
			vcpus[i].counting = vcpus[i].pending = false;
		break;
	case ALL_START:
		unbalanced += all;
		all = true;
		for (int i = 0; i < nr_vcpus; i++) {
			unbalanced += vcpus[i].counting || vcpus[i].pending;
			memset(&vcpus[i].sec, 0, sizeof(vcpus[i].sec));
			vcpus[i].counting = true;
			vcpus[i].pending = false;
		}
		break;
	case ALL_STOP:
		if (!all) {
			unbalanced++;
			break;
		}
		all = false;
		for (int i = 0; i < nr_vcpus; i++) {
			keep(&vcpus[i]);
			vcpus[i].counting = false;
		}
		kept_sections++;
		break;
	}
}

/* The marker an instruction is, or 0. */
static unsigned int marker(const uint8_t *d, size_t n)
{
	uint32_t disp;

	if (n != 8 || d[0] != 0x0f || d[1] != 0x1f || d[2] != 0x84 || d[3] != 0x00)
		return 0;
	memcpy(&disp, d + 4, 4);
	if (disp - MARK_BASE - 1 >= NR_MARKS - 1)
		return 0;
	return disp - MARK_BASE;
}

/*
 * Whether an x86 instruction is an atomic read-modify-write: any with a
 * LOCK prefix, xchg with a memory operand (locked without the prefix),
 * and cmpxchg8b/cmpxchg16b (0f c7 /1), which SLUB's per-CPU fast path
 * runs without LOCK and which cost about as much.
 */
static bool is_atomic(const uint8_t *d, size_t n)
{
	size_t i = 0;
	uint8_t modrm;

	for (; i < n; i++) {
		switch (d[i]) {
		case 0xf0:
			return true;
		case 0xf2: case 0xf3: case 0x2e: case 0x36: case 0x3e:
		case 0x26: case 0x64: case 0x65: case 0x66: case 0x67:
			continue;
		}
		break;
	}
	if (i < n && (d[i] & 0xf0) == 0x40)	/* REX */
		i++;
	if (i + 1 >= n)
		return false;
	modrm = d[i + 1];
	if (d[i] == 0x86 || d[i] == 0x87)
		return (modrm >> 6) != 3;
	if (d[i] == 0x0f && d[i + 1] == 0xc7 && i + 2 < n)
		return (d[i + 2] >> 6) != 3 && ((d[i + 2] >> 3) & 7) == 1;
	return false;
}

/*
 * Whether the block may list an instruction it does not execute. QEMU
 * 7.2's x86 translator ends a block before a later instruction that
 * would cross into the next page, and translates that instruction again
 * as the first of the next block; the plugin API still lists it in this
 * block (and counts it in qemu_plugin_tb_n_insns()), but none of its
 * callbacks run. Such an instruction starts within 15 bytes, the longest
 * x86 instruction, of the end of the block's first page.
 */
static bool may_list_unexecuted(struct qemu_plugin_tb *tb, size_t n)
{
	uint64_t first = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
	uint64_t last = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, n - 1));

	return n > 1 && (first >> 12) == (last >> 12) && (last & 4095) > 4096 - 15;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	bool by_insn;

	by_insn = may_list_unexecuted(tb, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		by_insn |= marker(qemu_plugin_insn_data(insn),
				  qemu_plugin_insn_size(insn)) != 0;
	}
	/*
	 * A block is counted whole when it starts, unless it holds a marker
	 * (a section must hold exactly the instructions between its markers)
	 * or may list an instruction it does not execute: then instruction
	 * by instruction.
	 */
	if (!by_insn)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *d = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);
		unsigned int m = marker(d, size);

		if (m) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)m);
			continue;
		}
		if (by_insn)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, tb_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)1);
		if (is_atomic(d, size))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, atomic_exec,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_mem_cb(insn, mem_cb, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void vcpu_init(qemu_plugin_id_t id, unsigned int cpu)
{
	cache_init(&vcpus[cpu].l1, l1_size, l1_ways);
	cache_init(&vcpus[cpu].l2, l2_size, l2_ways);
}

/* A power of two, at least @min. */
static bool parse_pow2(const char *arg, const char *name, uint64_t *val, uint64_t min)
{
	size_t len = strlen(name);
	char *end;

	if (strncmp(arg, name, len) || arg[len] != '=')
		return false;
	*val = strtoull(arg + len + 1, &end, 0);
	if (*end || *val < min || (*val & (*val - 1))) {
		fprintf(stderr, "costmodel: %s: a power of two, at least %" PRIu64 "\n",
			arg, min);
		exit(1);
	}
	return true;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	if (strcmp(info->target_name, "x86_64") && strcmp(info->target_name, "i386")) {
		fprintf(stderr, "costmodel: x86 guests only, not %s\n", info->target_name);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (parse_pow2(argv[i], "l1_size", &l1_size, 64) ||
		    parse_pow2(argv[i], "l1_ways", &l1_ways, 1) ||
		    parse_pow2(argv[i], "l2_size", &l2_size, 64) ||
		    parse_pow2(argv[i], "l2_ways", &l2_ways, 1))
			continue;
		if (!strncmp(argv[i], "out=", 4)) {
			out = fopen(argv[i] + 4, "w");
			if (!out) {
				perror(argv[i] + 4);
				return -1;
			}
			continue;
		}
		fprintf(stderr, "costmodel: unknown argument %s (known: l1_size l1_ways l2_size l2_ways out)\n",
			argv[i]);
		return -1;
	}
	if (l1_size < l1_ways << LINE_SHIFT || l2_size < l2_ways << LINE_SHIFT) {
		fprintf(stderr, "costmodel: a cache smaller than one line a way\n");
		return -1;
	}
	nr_vcpus = info->system_emulation ? info->system.max_vcpus : 1;
	if (nr_vcpus > 8) {
		fprintf(stderr, "costmodel: at most 8 vCPUs, not %d\n", nr_vcpus);
		return -1;
	}
	vcpus = calloc(nr_vcpus, sizeof(*vcpus));
	if (!vcpus)
		return -1;
	if (!out)
		out = stderr;
	fprintf(out, "costmodel: l1d %" PRIu64 " B %" PRIu64 "-way, l2 %" PRIu64
			" B %" PRIu64 "-way, %d-byte lines, LRU, %d vCPUs\n",
			l1_size, l1_ways, l2_size, l2_ways, 1 << LINE_SHIFT, nr_vcpus);
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
