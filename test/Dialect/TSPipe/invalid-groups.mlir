// RUN: tspipe-opt %s -split-input-file -verify-diagnostics

// Pipeline groups (R14, R24, R67-R69). The valid twin of each case has the
// same name in valid-groups.mlir.

// -----

// R24: a member of a merge group waited on without naming the group.
func.func @R24_bare_member(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ab)
        tspipe.producer_commit @a group(@ab)
      }
    }
    tspipe.task @load_b warps(1, 1) produces [@b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @b group(@ab)
        tspipe.producer_commit @b group(@ab)
      }
    }
    tspipe.task @use warps(2, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'tspipe.consumer_wait' op [R24] '@a' is a member of pipeline group '@ab' and is used through it; write 'tspipe.consumer_wait @a group(@ab)'}}
        %s = tspipe.consumer_wait @a
        %t = tspipe.consumer_wait @b group(@ab)
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// R24: a member of a merge group released on its own.
func.func @R24_merge_member_release(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ab)
        tspipe.producer_commit @a group(@ab)
      }
    }
    tspipe.task @load_b warps(1, 1) produces [@b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @b group(@ab)
        tspipe.producer_commit @b group(@ab)
      }
    }
    tspipe.task @use warps(2, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @a group(@ab)
        %t = tspipe.consumer_wait @b group(@ab)
        // expected-error @+1 {{'tspipe.consumer_release' op [R24] the members of merge group @ab share one empty barrier, so tspipe.consumer_release is issued once on the group, not on member @a; write 'tspipe.consumer_release @ab'}}
        tspipe.consumer_release @a group(@ab)
        tspipe.consumer_release @b group(@ab)
      }
    }
  }
  return
}

// -----

// R24: a merge group takes only the release.
func.func @R24_merge_group_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ab)
        tspipe.producer_commit @a group(@ab)
      }
    }
    tspipe.task @load_b warps(1, 1) produces [@b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @b group(@ab)
        tspipe.producer_commit @b group(@ab)
      }
    }
    tspipe.task @use warps(2, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'tspipe.consumer_wait' op [R24] merge group @ab takes only tspipe.consumer_release (the bracket its members share); name one member: 'tspipe.consumer_wait @<member> group(@ab)'}}
        %s = tspipe.consumer_wait @ab
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// R24: a member of a fork group committed on its own.
func.func @R24_fork_member_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @y config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @xy fork [@x, @y]
    tspipe.task @load warps(0, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        %t = tspipe.producer_acquire @y group(@xy)
        // expected-error @+1 {{'tspipe.producer_commit' op [R24] the members of fork group @xy share one full barrier, so tspipe.producer_commit is issued once on the group, not on member @x; write 'tspipe.producer_commit @xy'}}
        tspipe.producer_commit @x group(@xy)
        tspipe.producer_commit @y group(@xy)
      }
    }
    tspipe.task @use_x warps(1, 1) consumes [@x] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @x group(@xy)
        tspipe.consumer_release @x group(@xy)
      }
    }
    tspipe.task @use_y warps(2, 1) consumes [@y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @y group(@xy)
        tspipe.consumer_release @y group(@xy)
      }
    }
  }
  return
}

// -----

// R24: group(...) names a group the pipeline is not a member of.
func.func @R24_not_a_member(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @c config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    tspipe.task @load warps(0, 1) produces [@c] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'tspipe.producer_acquire' op [R24] '@c' is not a member of pipeline group @ab; drop group(...) or add '@c' to the group's members}}
        %s = tspipe.producer_acquire @c group(@ab)
        tspipe.producer_commit @c
      }
    }
    tspipe.task @use warps(1, 1) consumes [@c] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @c
        tspipe.consumer_release @c
      }
    }
  }
  return
}

// -----

// R27: the task releasing a merge group must consume every member.
func.func @R27_group_release_unlisted(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ab)
        tspipe.producer_commit @a group(@ab)
      }
    }
    tspipe.task @load_b warps(1, 1) produces [@b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @b group(@ab)
        tspipe.producer_commit @b group(@ab)
      }
    }
    tspipe.task @use warps(2, 1) consumes [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @a group(@ab)
        // expected-error @+1 {{'tspipe.consumer_release' op [R27] task '@use' uses the consumer side of group @ab but does not list its member '@b' in 'consumes'; add @b to the task's consumes list}}
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// R67: members with different stage counts.
func.func @R67_num_stages() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<tma_umma, num_stages = 4, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @b config(<tma_umma, num_stages = 3, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] member '@b' has num_stages = 3 but '@a' has 4; the members of a group advance through one ring of stages, so num_stages must be equal; make it 4 on '@b'}}
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  return
}

// -----

// R67: a CLC fetch ring cannot join a group.
func.func @R67_clc_member() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<clc_fetch_async, num_stages = 1, num_bytes = 16, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] member '@a' is a clc_fetch_async pipeline, which cannot join a group}}
    tspipe.pipeline_group @g merge [@a]
  }
  return
}

// -----

// R67: members differing on both sides.
func.func @R67_both_sides_differ() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @b config(<async_umma, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 1>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] the members differ in both their producer units and their consumer units; a group shares one side, so its members may differ on the other side only}}
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  return
}

// -----

// R67: the members' types make a merge group, declared fork.
func.func @R67_derived_mode() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] the members differ in their producer units, which makes this a merge group (it shares the consumer side), but the group is declared fork; declare it merge}}
    tspipe.pipeline_group @ab fork [@a, @b]
  }
  return
}

// -----

// R67: the shared empty barrier of a merge group counts one consumer group.
func.func @R67_collapsed_group_size() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] member '@b' has consumer_group <thread, 64> but '@a' has <thread, 32>; the shared empty barrier of a merge group counts one group of arrivals, so the groups must be equal}}
    tspipe.pipeline_group @ab merge [@a, @b]
  }
  return
}

// -----

// R67: fork members with different byte counts.
func.func @R67_fork_bytes() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 2048, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] fork member '@y' has num_bytes = 2048 but '@x' has 1024; the members of a fork group fill their stages together, so their num_bytes must be equal}}
    tspipe.pipeline_group @xy fork [@x, @y]
  }
  return
}

// -----

// R9: the shared full barrier of a fork whose producer fills each member
// with a copy of its own expects the sum of their bytes (R68),
// 2 x 786432 > 2^20 - 1.
func.func @R9_fork_bytes_sum(%src: !llvm.ptr<1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = arith.constant 786432 : i32
  tspipe.kernel warps(3) {
    tspipe.pipeline @x config(<tma_async, num_stages = 1, num_bytes = 786432, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(786432)
    tspipe.pipeline @y config(<tma_async, num_stages = 1, num_bytes = 786432, producer_group = <thread, 1>, consumer_group = <thread, 1>>) smem_bytes(786432)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R9] the fork's shared full barrier expects the bytes of the members its producer fills, 1572864, which exceeds the mbarrier transaction count limit of 1048575 bytes per phase; give the members smaller stages or fewer members}}
    tspipe.pipeline_group @xy fork [@x, @y]
    tspipe.task @load warps(0, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @x group(@xy)
        %t = tspipe.producer_acquire @y group(@xy)
        %fs = tspipe.full_barrier %s : !llvm.ptr<3>
        %ft = tspipe.full_barrier %t : !llvm.ptr<3>
        %ds = tspipe.stage_buffer %s : !llvm.ptr<3>
        %dt = tspipe.stage_buffer %t : !llvm.ptr<3>
        %e = nvvm.elect.sync -> i1
        scf.if %e {
          %ds7 = llvm.addrspacecast %ds : !llvm.ptr<3> to !llvm.ptr<7>
          %dt7 = llvm.addrspacecast %dt : !llvm.ptr<3> to !llvm.ptr<7>
          nvvm.cp.async.bulk.shared.cluster.global %ds7, %src, %fs, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
          nvvm.cp.async.bulk.shared.cluster.global %dt7, %src, %ft, %bytes : !llvm.ptr<7>, !llvm.ptr<1>
        }
        tspipe.producer_commit @xy
      }
    }
    tspipe.task @use_x warps(1, 1) consumes [@x] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @x group(@xy)
        tspipe.consumer_release @x group(@xy)
      }
    }
    tspipe.task @use_y warps(2, 1) consumes [@y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @y group(@xy)
        tspipe.consumer_release @y group(@xy)
      }
    }
  }
  return
}

// -----

// R67: a pipeline in two groups.
func.func @R67_two_groups() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @c config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] pipeline @b is already a member of group '@ab'; a pipeline joins at most one group}}
    tspipe.pipeline_group @bc merge [@b, @c]
  }
  return
}

// -----

// R67: a member listed twice.
func.func @R67_duplicate_member() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] lists member '@a' twice; list each pipeline once}}
    tspipe.pipeline_group @aa merge [@a, @a]
  }
  return
}

// -----

// R67: a group without members.
func.func @R67_no_members() {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] a pipeline group needs at least one member; list the pipelines that share its barriers}}
    tspipe.pipeline_group @g merge []
  }
  return
}

// -----

// R67: a member that is not a pipeline.
func.func @R67_unknown_member() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] member @z is not a tspipe.pipeline of the enclosing tspipe.kernel}}
    tspipe.pipeline_group @g merge [@a, @z]
  }
  return
}

// -----

// R68: an explicit fork config whose bytes are neither the members' common
// num_bytes (one load that every member reads) nor a multiple of it up to
// their sum (one copy per member).
func.func @R68_bytes_not_summed() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @x config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @y config(<tma_async, num_stages = 2, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R68] the fork group config has num_bytes = 1536, but its shared full barrier receives the bytes of the members the producer fills: 1024 (one load that every member reads) up to 2048 (one copy per member), in steps of 1024; set num_bytes = 1024 or 2048}}
    tspipe.pipeline_group @xy fork [@x, @y] config(<tma_async, num_stages = 2, num_bytes = 1536, producer_group = <thread, 1>, consumer_group = <thread, 2>>)
  }
  return
}

// -----

// R68: an explicit group config with another stage count.
func.func @R68_num_stages() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    // expected-error @+2 {{'tspipe.pipeline_group' op [R68] the group config has num_stages = 4 but member '@b' has 2; make them equal}}
    // expected-error @+1 {{'tspipe.pipeline_group' op [R68] the group config has num_stages = 4 but member '@a' has 2; make them equal}}
    tspipe.pipeline_group @ab merge [@a, @b] config(<async_async, num_stages = 4, producer_group = <thread, 64>, consumer_group = <thread, 32>>)
  }
  return
}

// -----

// R68: an explicit merge config whose consumer group is not the members'.
func.func @R68_shared_group() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R68] the group config's consumer_group <thread, 64> counts 64 arrivals but the shared empty barrier receives 32 (member '@a'); make the groups equal}}
    tspipe.pipeline_group @ab merge [@a, @b] config(<async_async, num_stages = 2, producer_group = <thread, 64>, consumer_group = <thread, 64>>)
  }
  return
}

// -----

// R69: an explicit (homogeneous) group config with a member of another type.
func.func @R69_member_type() {
  tspipe.kernel warps(1) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 32>>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R69] the group config has type async_async but member '@b' is umma_async; a group with an explicit config is homogeneous (drop the config to derive a mixed group's)}}
    tspipe.pipeline_group @ab merge [@a, @b] config(<async_async, num_stages = 2, producer_group = <thread, 33>, consumer_group = <thread, 32>>)
  }
  return
}

// -----

// R14: an AsyncUmma producer arrives as async threads or async loads; no
// other op is representable.
func.func @R14_umma_producer_op() {
  tspipe.kernel warps(1) {
    // expected-error @+1 {{[R14]}}
    tspipe.pipeline @a config(<async_umma, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 1>, umma_consumer_producer_op = tma_load>)
  }
  return
}

// -----

// R24: a fused_merge group's consumer waits once, on the group, not on a
// member.
func.func @R24_fused_member_wait(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline_group @ab fused_merge [@a, @b]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ab)
        tspipe.producer_commit @a group(@ab)
      }
    }
    tspipe.task @load_b warps(1, 1) produces [@b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @b group(@ab)
        tspipe.producer_commit @b group(@ab)
      }
    }
    tspipe.task @use warps(2, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'tspipe.consumer_wait' op [R24] the members of fused_merge group @ab share one full and one empty barrier, so tspipe.consumer_wait is issued once on the group, not on member @a; write 'tspipe.consumer_wait @ab'}}
        %s = tspipe.consumer_wait @a group(@ab)
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// R24: the producers of a fused_merge group commit their own members.
func.func @R24_fused_group_commit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline_group @ab fused_merge [@a, @b]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ab)
        // expected-error @+1 {{'tspipe.producer_commit' op [R24] fused_merge group @ab takes only tspipe.consumer_try_wait, tspipe.consumer_wait and tspipe.consumer_release (the bracket its members share); name one member: 'tspipe.producer_commit @<member> group(@ab)'}}
        tspipe.producer_commit @ab
      }
    }
    tspipe.task @load_b warps(1, 1) produces [@b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @b group(@ab)
        tspipe.producer_commit @b group(@ab)
      }
    }
    tspipe.task @use warps(2, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ab
        %sa = tspipe.current_stage @a consumer group(@ab)
        %ba = tspipe.stage_buffer %sa : !llvm.ptr<3>
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// R24: the stage of a fused_merge group's wait addresses no data buffer.
func.func @R24_fused_group_stage_buffer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @a config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline @b config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>) smem_bytes(1024)
    tspipe.pipeline_group @ab fused_merge [@a, @b]
    tspipe.task @load_a warps(0, 1) produces [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a group(@ab)
        tspipe.producer_commit @a group(@ab)
      }
    }
    tspipe.task @load_b warps(1, 1) produces [@b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @b group(@ab)
        tspipe.producer_commit @b group(@ab)
      }
    }
    tspipe.task @use warps(2, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @ab
        // expected-error @+1 {{'tspipe.stage_buffer' op [R24] the stage of a wait on group '@ab' addresses the barriers its members share, not a data buffer; take the stage of one member with 'tspipe.current_stage @<member> consumer group(@ab)'}}
        %ba = tspipe.stage_buffer %s : !llvm.ptr<3>
        tspipe.consumer_release @ab
      }
    }
  }
  return
}

// -----

// R67: a fused_merge group cannot be interleaved (TS 4.8.1).
func.func @R67_fused_interleave() {
  tspipe.kernel warps(4) {
    tspipe.pipeline @a config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = 2>)
    tspipe.pipeline @b config(<async_async, num_stages = 4, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = 2>)
    // expected-error @+1 {{'tspipe.pipeline_group' op [R67] fused_merge group members have interleave_stride = [2]; a fused_merge group cannot be interleaved (its producers share one full barrier per stage); use a merge group or drop the stride}}
    tspipe.pipeline_group @ab fused_merge [@a, @b]
  }
  return
}

// -----

// R24: group(...) names no pipeline group at all.
func.func @R24_unknown_group(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(2) {
    tspipe.pipeline @c config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.task @load warps(0, 1) produces [@c] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'tspipe.producer_acquire' op [R24] group(@nope) does not name a tspipe.pipeline_group of the enclosing tspipe.kernel; name the group '@c' belongs to, or drop group(...)}}
        %s = tspipe.producer_acquire @c group(@nope)
        tspipe.producer_commit @c
      }
    }
    tspipe.task @use warps(1, 1) consumes [@c] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @c
        tspipe.consumer_release @c
      }
    }
  }
  return
}
