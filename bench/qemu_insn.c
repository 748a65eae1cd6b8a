// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  A qemu-user TCG plugin that counts the guest instructions a program
  executes and prints the count at exit: "insns N" on stderr.  Debian 12
  ships qemu-user with plugin support but without qemu's own example
  plugins or their header, so the few declarations of qemu's plugin API
  (version 1, qemu 4.2 to 7.x) that this needs are written here.  Built
  and run by bench/qemu-insn.sh; the figure is a count of aarch64
  instructions, not a time (doc/manual.md, Building for ARM).
*/

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define P4D_QEMU_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct {
  const char* target_name;
  struct {
    int min;
    int cur;
  } version;
  // Later fields (system emulation) are not read.
} P4dQemuInfo;

enum { P4D_QEMU_INLINE_ADD_U64 = 0 };

typedef void (*P4dQemuTbTrans)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*P4dQemuAtExit)(qemu_plugin_id_t id, void* userdata);

void
qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, P4dQemuTbTrans cb);
void
qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb,
                                         int                    op,
                                         void*                  ptr,
                                         uint64_t               imm);
size_t
qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
void
qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                               P4dQemuAtExit    cb,
                               void*            userdata);

P4D_QEMU_EXPORT int qemu_plugin_version = 1;

/// Instructions executed (qemu-user runs the guest's threads one at a
/// time under its lock only for translation: a threaded guest may lose a
/// few counts, so measure with --jobs 1).
static uint64_t n_insns;

static void
on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb)
{
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(
    tb, P4D_QEMU_INLINE_ADD_U64, &n_insns, qemu_plugin_tb_n_insns(tb));
}

static void
report(qemu_plugin_id_t id, void* userdata)
{
  (void)id;
  (void)userdata;
  fprintf(stderr, "insns %" PRIu64 "\n", n_insns);
}

P4D_QEMU_EXPORT int
qemu_plugin_install(qemu_plugin_id_t   id,
                    const P4dQemuInfo* info,
                    int                argc,
                    char**             argv)
{
  (void)info;
  (void)argc;
  (void)argv;
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, report, NULL);
  return 0;
}
