// RUN: tspipe-opt %s | tspipe-opt | FileCheck %s
// RUN: tspipe-opt %s --mlir-print-op-generic | tspipe-opt | FileCheck %s

// Round trip of every tspipe op and of every #tspipe.config field and enum
// value. Fields that keep their default are dropped by the printer; the
// CHECK-NOT lines make sure they stay dropped.

gpu.module @ops {

// The example of tspipe.kernel's description, verbatim.
// CHECK-LABEL: gpu.func @kernel_doc_example
// CHECK:         tspipe.kernel warps(5) {
// CHECK-NEXT:      tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 4>>) smem_bytes(16384)
// CHECK-NEXT:      tspipe.task @load warps(0, 1) produces [@ring] {
// CHECK-NEXT:        tspipe.domain_loop %{{.*}} = %[[C0:.*]] to %[[C8:.*]] step %[[C1:.*]] {
// CHECK-NEXT:          %{{.*}} = tspipe.producer_acquire @ring
// CHECK-NEXT:          tspipe.producer_commit @ring
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      tspipe.task @compute warps(1, 4) consumes [@ring] {
// CHECK-NEXT:        tspipe.domain_loop %{{.*}} = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK-NEXT:          %{{.*}} = tspipe.consumer_wait @ring
// CHECK-NEXT:          tspipe.consumer_release @ring
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
gpu.func @kernel_doc_example() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tspipe.kernel warps(5) {
    tspipe.pipeline @ring config(<tma_async, num_stages = 4, num_bytes = 4096,
        producer_group = <thread, 1>, consumer_group = <thread, 4>>)
        smem_bytes(16384)
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %c0 to %c8 step %c1 {
        %s = tspipe.producer_acquire @ring
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @compute warps(1, 4) consumes [@ring] {
      tspipe.domain_loop %i = %c0 to %c8 step %c1 {
        %s = tspipe.consumer_wait @ring
        tspipe.consumer_release @ring
      }
    }
  }
  gpu.return
}

// The examples of the other op descriptions (tspipe.pipeline, tspipe.task,
// tspipe.domain_loop with tspipe.first_iter, the try brackets and the stage
// accessors), put together into one kernel.
// CHECK-LABEL: gpu.func @op_doc_examples
// CHECK:         tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>, async_producer_op = async_load>) smem_bytes(8192)
// CHECK:         tspipe.task @load warps(0, 1) produces [@ring] {
// CHECK-NEXT:      tspipe.domain_loop %{{.*}} = %[[LB:.*]] to %[[UB:.*]] step %{{.*}} {
// CHECK-NEXT:        %[[READY:.*]] = tspipe.producer_try_acquire @ring
// CHECK-NEXT:        %[[S:.*]] = tspipe.producer_acquire @ring ready(%[[READY]])
// CHECK-NEXT:        %{{.*}} = tspipe.full_barrier %[[S]] : !llvm.ptr<3>
// CHECK-NEXT:        tspipe.producer_commit @ring
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    tspipe.task @use warps(1, 2) consumes [@ring] {
// CHECK-NEXT:      tspipe.domain_loop %{{.*}} = %[[LB]] to %[[UB]] step %{{.*}} {
// CHECK-NEXT:        %[[R:.*]] = tspipe.consumer_try_wait @ring
// CHECK-NEXT:        %[[W:.*]] = tspipe.consumer_wait @ring ready(%[[R]])
// CHECK-NEXT:        %{{.*}} = tspipe.stage_buffer %[[W]] : !llvm.ptr<3>
// CHECK-NEXT:        %{{.*}} = tspipe.stage_index %[[W]]
// CHECK-NEXT:        %{{.*}} = tspipe.empty_barrier %[[W]] : !llvm.ptr<3>
// CHECK-NEXT:        tspipe.last_iter {
// CHECK-NEXT:          tspipe.consumer_release @ring
// CHECK-NEXT:        }
// CHECK-NEXT:        tspipe.first_iter {
// CHECK-NEXT:          %{{.*}} = tspipe.current_stage @ring consumer
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
gpu.func @op_doc_examples(%lb: index, %ub: index) kernel {
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(3) {
    tspipe.pipeline @ring config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 64>,
        async_producer_op = async_load>) smem_bytes(8192)
    tspipe.task @load warps(0, 1) produces [@ring] {
      tspipe.domain_loop %i = %lb to %ub step %c1 {
        %ready = tspipe.producer_try_acquire @ring
        %s = tspipe.producer_acquire @ring ready(%ready)
        %bar = tspipe.full_barrier %s : !llvm.ptr<3>
        tspipe.producer_commit @ring
      }
    }
    tspipe.task @use warps(1, 2) consumes [@ring] {
      tspipe.domain_loop %i = %lb to %ub step %c1 {
        %ready = tspipe.consumer_try_wait @ring
        %s = tspipe.consumer_wait @ring ready(%ready)
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %i2 = tspipe.stage_index %s
        %b = tspipe.empty_barrier %s : !llvm.ptr<3>
        tspipe.last_iter {
          tspipe.consumer_release @ring
        }
        tspipe.first_iter {
          %c = tspipe.current_stage @ring consumer
        }
      }
    }
  }
  gpu.return
}

// All seven pipeline types. clc_fetch_async's producer signaling defaults to
// cta_leader (TS's factory default), so it is not printed.
// CHECK-LABEL: gpu.func @pipeline_types
// CHECK:       tspipe.pipeline @aa config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>)
// CHECK:       tspipe.pipeline @ta config(<tma_async, num_stages = 3, num_bytes = 8192, producer_group = <thread, 1>, consumer_group = <thread, 4>>)
// CHECK:       tspipe.pipeline @tu config(<tma_umma, num_stages = 4, num_bytes = 32768, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
// CHECK:       tspipe.pipeline @ua config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>>)
// CHECK:       tspipe.pipeline @au config(<async_umma, num_stages = 2, producer_group = <thread, 128>, consumer_group = <thread, 1>>)
// CHECK:       tspipe.pipeline @uu config(<umma_umma, num_stages = 1, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
// CHECK:       tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 1, num_bytes = 16, producer_group = <thread, 1>, consumer_group = <thread, 224>>)
// CHECK-NOT:   producer_signaling
gpu.func @pipeline_types() kernel {
  tspipe.kernel warps(8) {
    tspipe.pipeline @aa config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 64>>)
    tspipe.pipeline @ta config(<tma_async, num_stages = 3, num_bytes = 8192,
        producer_group = <thread, 1>, consumer_group = <thread, 4>>)
    tspipe.pipeline @tu config(<tma_umma, num_stages = 4, num_bytes = 32768,
        producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @ua config(<umma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 128>>)
    tspipe.pipeline @au config(<async_umma, num_stages = 2,
        producer_group = <thread, 128>, consumer_group = <thread, 1>>)
    tspipe.pipeline @uu config(<umma_umma, num_stages = 1,
        producer_group = <thread, 1>, consumer_group = <thread, 1>>)
    tspipe.pipeline @clc config(<clc_fetch_async, num_stages = 1, num_bytes = 16,
        producer_group = <thread, 1>, consumer_group = <thread, 224>>)
  }
  gpu.return
}

// Every cooperative group agent, in the short form and in the full
// #tspipe.group form (which prints as the short form).
// CHECK-LABEL: gpu.func @agents
// CHECK:       tspipe.pipeline @thread_warp config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <warp, 2>>)
// CHECK:       tspipe.pipeline @blocks config(<async_async, num_stages = 2, producer_group = <thread_block, 1>, consumer_group = <thread_block_cluster, 1>>)
// CHECK:       tspipe.pipeline @full_form config(<async_async, num_stages = 2, producer_group = <warp, 1>, consumer_group = <thread, 7>>)
gpu.func @agents() kernel {
  tspipe.kernel warps(4) {
    tspipe.pipeline @thread_warp config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <warp, 2>>)
    tspipe.pipeline @blocks config(<async_async, num_stages = 2,
        producer_group = <thread_block, 1>,
        consumer_group = <thread_block_cluster, 1>>)
    tspipe.pipeline @full_form config(<async_async, num_stages = 2,
        producer_group = #tspipe.group<warp, 1>,
        consumer_group = #tspipe.group<thread, 7>>)
  }
  gpu.return
}

// The four valid SignalingThreads values on each of the three signaling
// fields. `all` is the default of producer_signaling / consumer_signaling and
// is dropped; consumer_wait_signaling has no default, so `all` stays.
// CHECK-LABEL: gpu.func @signaling
// CHECK:       tspipe.pipeline @p_all config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
// CHECK:       tspipe.pipeline @p_cta config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = cta_leader>)
// CHECK:       tspipe.pipeline @p_twl config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = task_warp_leader>)
// CHECK:       tspipe.pipeline @p_both config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = cta_leader|task_warp_leader>)
// CHECK:       tspipe.pipeline @c_all config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
// CHECK:       tspipe.pipeline @c_cta config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = cta_leader>)
// CHECK:       tspipe.pipeline @c_twl config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = task_warp_leader>)
// CHECK:       tspipe.pipeline @c_both config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_signaling = cta_leader|task_warp_leader>)
// CHECK:       tspipe.pipeline @w_all config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_wait_signaling = all>)
// CHECK:       tspipe.pipeline @w_cta config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_wait_signaling = cta_leader>)
// CHECK:       tspipe.pipeline @w_twl config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_wait_signaling = task_warp_leader>)
// CHECK:       tspipe.pipeline @w_both config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, consumer_wait_signaling = cta_leader|task_warp_leader>)
// CHECK:       tspipe.pipeline @mixed config(<tma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = cta_leader|task_warp_leader, consumer_signaling = cta_leader, consumer_wait_signaling = all>)
// The clc_fetch_async default is cta_leader, so `all` is printed there.
// CHECK:       tspipe.pipeline @clc_all config(<clc_fetch_async, num_stages = 1, num_bytes = 16, producer_group = <thread, 1>, consumer_group = <thread, 1>, producer_signaling = all>)
gpu.func @signaling() kernel {
  tspipe.kernel warps(1) {
    tspipe.pipeline @p_all config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        producer_signaling = all>)
    tspipe.pipeline @p_cta config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        producer_signaling = cta_leader>)
    tspipe.pipeline @p_twl config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        producer_signaling = task_warp_leader>)
    // The bits may be written in either order.
    tspipe.pipeline @p_both config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        producer_signaling = task_warp_leader | cta_leader>)
    tspipe.pipeline @c_all config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        consumer_signaling = all>)
    tspipe.pipeline @c_cta config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        consumer_signaling = cta_leader>)
    tspipe.pipeline @c_twl config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        consumer_signaling = task_warp_leader>)
    tspipe.pipeline @c_both config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        consumer_signaling = cta_leader|task_warp_leader>)
    tspipe.pipeline @w_all config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        consumer_wait_signaling = all>)
    tspipe.pipeline @w_cta config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        consumer_wait_signaling = cta_leader>)
    tspipe.pipeline @w_twl config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        consumer_wait_signaling = task_warp_leader>)
    tspipe.pipeline @w_both config(<tma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        consumer_wait_signaling = cta_leader|task_warp_leader>)
    // Fields may come in any order; the printer uses the canonical one.
    tspipe.pipeline @mixed config(<tma_async, consumer_wait_signaling = all,
        consumer_signaling = cta_leader, num_stages = 2,
        producer_signaling = cta_leader|task_warp_leader,
        consumer_group = <thread, 1>, producer_group = <thread, 1>>)
    tspipe.pipeline @clc_all config(<clc_fetch_async, num_stages = 1,
        num_bytes = 16, producer_group = <thread, 1>,
        consumer_group = <thread, 1>, producer_signaling = all>)
  }
  gpu.return
}

// Both PipelineOpKind values on both producer-op fields, where R2 / R3 allow
// them. async_thread is the default and is dropped.
// CHECK-LABEL: gpu.func @producer_ops
// CHECK:       tspipe.pipeline @aa_load config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, async_producer_op = async_load>)
// CHECK:       tspipe.pipeline @aa_thread config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
// CHECK:       tspipe.pipeline @au_load config(<async_umma, num_stages = 2, producer_group = <thread, 128>, consumer_group = <thread, 1>, umma_consumer_producer_op = async_load>)
// CHECK:       tspipe.pipeline @tu_thread config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>>)
gpu.func @producer_ops() kernel {
  tspipe.kernel warps(4) {
    tspipe.pipeline @aa_load config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>,
        async_producer_op = async_load>)
    tspipe.pipeline @aa_thread config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>,
        async_producer_op = async_thread>)
    tspipe.pipeline @au_load config(<async_umma, num_stages = 2,
        producer_group = <thread, 128>, consumer_group = <thread, 1>,
        umma_consumer_producer_op = async_load>)
    tspipe.pipeline @tu_thread config(<tma_umma, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        async_producer_op = async_thread,
        umma_consumer_producer_op = async_thread>)
  }
  gpu.return
}

// interleave_stride as one int, as a one-element list (printed as the int)
// and as the 4-tuple; advance_on_wait / advance_on_acquire set and unset.
// CHECK-LABEL: gpu.func @strides_and_advance
// CHECK:       tspipe.pipeline @one config(<async_async, num_stages = 8, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = 4>)
// CHECK:       tspipe.pipeline @list_of_one config(<async_async, num_stages = 8, producer_group = <thread, 32>, consumer_group = <thread, 32>, interleave_stride = 2>)
// CHECK:       tspipe.pipeline @unit config(<async_async, num_stages = 8, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
// CHECK:       tspipe.pipeline @tuple config(<async_async, num_stages = 8, producer_group = <thread, 32>, consumer_group = <thread, 32>, advance_on_wait = true, advance_on_acquire = true, interleave_stride = [2, 1, 4, 1]>)
// CHECK:       tspipe.pipeline @tuple_sym config(<tma_umma, num_stages = 8, num_bytes = 1024, producer_group = <thread, 1>, consumer_group = <thread, 1>, interleave_stride = [1, 1, 2, 2]>)
// CHECK:       tspipe.pipeline @flags config(<tma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, advance_on_wait = true>)
// CHECK-NOT:   = false
gpu.func @strides_and_advance() kernel {
  tspipe.kernel warps(4) {
    tspipe.pipeline @one config(<async_async, num_stages = 8,
        producer_group = <thread, 32>, consumer_group = <thread, 32>,
        interleave_stride = 4>)
    tspipe.pipeline @list_of_one config(<async_async, num_stages = 8,
        producer_group = <thread, 32>, consumer_group = <thread, 32>,
        interleave_stride = [2]>)
    tspipe.pipeline @unit config(<async_async, num_stages = 8,
        producer_group = <thread, 32>, consumer_group = <thread, 32>,
        interleave_stride = 1>)
    tspipe.pipeline @tuple config(<async_async, num_stages = 8,
        producer_group = <thread, 32>, consumer_group = <thread, 32>,
        interleave_stride = [2, 1, 4, 1], advance_on_acquire = true,
        advance_on_wait = true>)
    tspipe.pipeline @tuple_sym config(<tma_umma, num_stages = 8,
        num_bytes = 1024, producer_group = <thread, 1>,
        consumer_group = <thread, 1>, interleave_stride = [1, 1, 2, 2]>)
    tspipe.pipeline @flags config(<tma_umma, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        advance_on_wait = true, advance_on_acquire = false>)
  }
  gpu.return
}

// A 2x2 cluster: cta_layout_vmnk, every valid mcast_mode_mn ([1, 1] is the
// default), num_bytes_per_warp_per_cta, TMEM columns, and explicit num_bytes
// = 0 (the default, dropped).
// CHECK-LABEL: gpu.func @cluster_fields
// CHECK:       tspipe.kernel warps(6) cluster([2, 2, 1]) {
// CHECK:       tspipe.pipeline @m_only config(<tma_umma, num_stages = 4, num_bytes = 16384, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 2, 1, 1], mcast_mode_mn = [1, 0]>) smem_bytes(65536)
// CHECK:       tspipe.pipeline @n_only config(<tma_async, num_stages = 2, num_bytes = 4096, producer_group = <thread, 1>, consumer_group = <thread, 8>, cta_layout_vmnk = [1, 4, 1, 1], num_bytes_per_warp_per_cta = 1024, mcast_mode_mn = [0, 1]>)
// CHECK:       tspipe.pipeline @both config(<umma_async, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 128>, cta_layout_vmnk = [2, 1, 2, 1]>) tmem_columns(256)
// CHECK:       tspipe.pipeline @l_mode config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>, cta_layout_vmnk = [1, 1, 1, 4]>) smem_bytes(1024){{$}}
// CHECK-NOT:   num_bytes = 0
gpu.func @cluster_fields() kernel {
  tspipe.kernel warps(6) cluster([2, 2, 1]) {
    tspipe.pipeline @m_only config(<tma_umma, num_stages = 4,
        num_bytes = 16384, producer_group = <thread, 1>,
        consumer_group = <thread, 1>, cta_layout_vmnk = [2, 2, 1, 1],
        mcast_mode_mn = [1, 0]>) smem_bytes(65536)
    tspipe.pipeline @n_only config(<tma_async, num_stages = 2,
        num_bytes = 4096, producer_group = <thread, 1>,
        consumer_group = <thread, 8>, cta_layout_vmnk = [1, 4, 1, 1],
        num_bytes_per_warp_per_cta = 1024, mcast_mode_mn = [0, 1]>)
    tspipe.pipeline @both config(<umma_async, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 128>,
        cta_layout_vmnk = [2, 1, 2, 1], mcast_mode_mn = [1, 1]>)
        tmem_columns(256)
    tspipe.pipeline @l_mode config(<async_async, num_stages = 2, num_bytes = 0,
        producer_group = <thread, 32>, consumer_group = <thread, 32>,
        cta_layout_vmnk = [1, 1, 1, 4]>) smem_bytes(1024)
  }
  gpu.return
}

// remote_arrive_scope, both values (absent is printed as absent: the
// default, cluster, is not written back).
// CHECK-LABEL: gpu.func @remote_arrive_scopes
// CHECK:       tspipe.pipeline @cta_release config({{.*}}) smem_bytes(32768) remote_arrive_scope(cta){{$}}
// CHECK:       tspipe.pipeline @cluster_release config({{.*}}) smem_bytes(32768) remote_arrive_scope(cluster){{$}}
// CHECK:       tspipe.pipeline @default_release config({{.*}}) smem_bytes(32768){{$}}
gpu.func @remote_arrive_scopes() kernel {
  tspipe.kernel warps(3) cluster([2, 1, 1]) {
    tspipe.pipeline @cta_release config(<tma_async, num_stages = 4,
        num_bytes = 8192, producer_group = <thread, 1>,
        consumer_group = <thread, 4>, cta_layout_vmnk = [1, 2, 1, 1],
        mcast_mode_mn = [0, 1]>) smem_bytes(32768) remote_arrive_scope(cta)
    tspipe.pipeline @cluster_release config(<tma_async, num_stages = 4,
        num_bytes = 8192, producer_group = <thread, 1>,
        consumer_group = <thread, 4>, cta_layout_vmnk = [1, 2, 1, 1],
        mcast_mode_mn = [0, 1]>) smem_bytes(32768)
        remote_arrive_scope(cluster)
    tspipe.pipeline @default_release config(<tma_async, num_stages = 4,
        num_bytes = 8192, producer_group = <thread, 1>,
        consumer_group = <thread, 4>, cta_layout_vmnk = [1, 2, 1, 1],
        mcast_mode_mn = [0, 1]>) smem_bytes(32768)
  }
  gpu.return
}

// Every bracket, try tokens, stage accessors, loop guards, a dynamic domain
// end, a task on one CTA, a task with a register count, a task that both
// produces and consumes, and the allocation attributes written by
// tspipe-allocate-smem.
// CHECK-LABEL: gpu.func @brackets
// CHECK-SAME:    (%[[N:.*]]: index)
// CHECK:       tspipe.kernel warps(8) cluster([2, 1, 1]) attributes {smem_bytes = 33280 : i64} {
// CHECK-NEXT:    tspipe.pipeline @a config({{.*}}) smem_bytes(16384) {barrier_offset = 0 : i64, buffer_offset = 128 : i64}
// CHECK-NEXT:    tspipe.pipeline @b config({{.*}}) smem_bytes(16384) {barrier_offset = 64 : i64, buffer_offset = 16512 : i64}
// CHECK-NEXT:    tspipe.task @load warps(0, 1) produces [@a] cta(0) {
// CHECK-NEXT:      %[[READY:.*]] = tspipe.producer_try_acquire @a
// CHECK-NEXT:      %{{.*}} = tspipe.producer_acquire @a ready(%[[READY]])
// CHECK-NEXT:      tspipe.producer_commit @a
// CHECK-NEXT:      tspipe.domain_loop %[[IV:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:        %[[S1:.*]] = tspipe.producer_acquire @a
// CHECK-NEXT:        %{{.*}} = tspipe.stage_index %[[S1]]
// CHECK-NEXT:        %{{.*}} = tspipe.stage_buffer %[[S1]] : !llvm.ptr<3>
// CHECK-NEXT:        %{{.*}} = tspipe.empty_barrier %[[S1]] : !llvm.ptr<3>
// CHECK-NEXT:        %{{.*}} = arith.addi %[[IV]], %[[IV]] : index
// CHECK-NEXT:        tspipe.producer_commit @a
// CHECK-NEXT:      }
// CHECK-NEXT:      tspipe.producer_tail @a
// CHECK-NEXT:    }
// CHECK-NEXT:    tspipe.task @transform warps(1, 3) produces [@b] consumes [@a] {
// CHECK-NEXT:      tspipe.domain_loop %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:        %[[TRY:.*]] = tspipe.consumer_try_wait @a
// CHECK-NEXT:        %[[IN:.*]] = tspipe.consumer_wait @a ready(%[[TRY]])
// CHECK-NEXT:        %{{.*}} = tspipe.stage_buffer %[[IN]] : !llvm.ptr<3>
// CHECK-NEXT:        %[[OUT:.*]] = tspipe.producer_acquire @b
// CHECK-NEXT:        %{{.*}} = tspipe.stage_buffer %[[OUT]] : !llvm.ptr<3>
// CHECK-NEXT:        tspipe.first_iter {
// CHECK-NEXT:          %[[CUR:.*]] = tspipe.current_stage @b producer
// CHECK-NEXT:          %{{.*}} = tspipe.stage_index %[[CUR]]
// CHECK-NEXT:        }
// CHECK-NEXT:        tspipe.producer_commit @b
// CHECK-NEXT:        tspipe.consumer_release @a
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    tspipe.task @store warps(4, 4) consumes [@b] registers(232) {
// CHECK-NEXT:      tspipe.domain_loop %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT:        %[[IN2:.*]] = tspipe.consumer_wait @b
// CHECK-NEXT:        %{{.*}} = tspipe.stage_buffer %[[IN2]] : !llvm.ptr<3>
// CHECK-NEXT:        tspipe.last_iter {
// CHECK-NEXT:          %[[REL:.*]] = tspipe.current_stage @b consumer
// CHECK-NEXT:          %{{.*}} = tspipe.full_barrier %[[REL]] : !llvm.ptr<3>
// CHECK-NEXT:        }
// CHECK-NEXT:        tspipe.consumer_release @b
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
gpu.func @brackets(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(8) cluster([2, 1, 1]) attributes {smem_bytes = 33280 : i64} {
    tspipe.pipeline @a config(<tma_async, num_stages = 2, num_bytes = 8192,
        producer_group = <thread, 1>, consumer_group = <thread, 6>,
        cta_layout_vmnk = [1, 2, 1, 1]>) smem_bytes(16384)
        {barrier_offset = 0 : i64, buffer_offset = 128 : i64}
    tspipe.pipeline @b config(<async_async, num_stages = 2,
        producer_group = <thread, 96>, consumer_group = <thread, 128>,
        cta_layout_vmnk = [1, 2, 1, 1]>) smem_bytes(16384)
        {barrier_offset = 64 : i64, buffer_offset = 16512 : i64}
    tspipe.task @load warps(0, 1) produces [@a] cta(0) {
      // Head: one bracket before the loop.
      %ready = tspipe.producer_try_acquire @a
      %s0 = tspipe.producer_acquire @a ready(%ready)
      tspipe.producer_commit @a
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.producer_acquire @a
        %idx = tspipe.stage_index %s
        %buf = tspipe.stage_buffer %s : !llvm.ptr<3>
        %empty = tspipe.empty_barrier %s : !llvm.ptr<3>
        %work = arith.addi %i, %i : index
        tspipe.producer_commit @a
      }
      // Tail: drain before exit.
      tspipe.producer_tail @a
    }
    tspipe.task @transform warps(1, 3) produces [@b] consumes [@a] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %try = tspipe.consumer_try_wait @a
        %in = tspipe.consumer_wait @a ready(%try)
        %src = tspipe.stage_buffer %in : !llvm.ptr<3>
        %out = tspipe.producer_acquire @b
        %dst = tspipe.stage_buffer %out : !llvm.ptr<3>
        tspipe.first_iter {
          %cur = tspipe.current_stage @b producer
          %k = tspipe.stage_index %cur
        }
        tspipe.producer_commit @b
        tspipe.consumer_release @a
      }
    }
    tspipe.task @store warps(4, 4) consumes [@b] registers(232) {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %in = tspipe.consumer_wait @b
        %src = tspipe.stage_buffer %in : !llvm.ptr<3>
        tspipe.last_iter {
          %rel = tspipe.current_stage @b consumer
          %bar = tspipe.full_barrier %rel : !llvm.ptr<3>
        }
        tspipe.consumer_release @b
      }
    }
  }
  gpu.return
}

// Pipeline groups: the example of tspipe.pipeline_group's description, a
// merge group (members waited on through the group, one release on the
// group) and a fork group with an explicit config (members acquired through
// the group, one commit on the group, member drains).
// CHECK-LABEL: gpu.func @pipeline_groups
// CHECK:         tspipe.pipeline_group @ab merge [@a, @b]
// CHECK:         tspipe.pipeline_group @xy fork [@x, @y] config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 64>>)
// CHECK:         tspipe.task @load_a
// CHECK:           %{{.*}} = tspipe.producer_acquire @a group(@ab)
// CHECK-NEXT:      tspipe.producer_commit @a group(@ab)
// CHECK:         tspipe.task @merge_use
// CHECK:           %[[R:.*]] = tspipe.consumer_try_wait @a group(@ab)
// CHECK-NEXT:      %{{.*}} = tspipe.consumer_wait @a group(@ab) ready(%[[R]])
// CHECK-NEXT:      %{{.*}} = tspipe.consumer_wait @b group(@ab)
// CHECK-NEXT:      tspipe.consumer_release @ab
// CHECK:         tspipe.task @fork_load
// CHECK:           %[[P:.*]] = tspipe.producer_try_acquire @x group(@xy)
// CHECK-NEXT:      %{{.*}} = tspipe.producer_acquire @x group(@xy) ready(%[[P]])
// CHECK-NEXT:      %{{.*}} = tspipe.producer_acquire @y group(@xy)
// CHECK-NEXT:      tspipe.producer_commit @xy
// CHECK:           tspipe.producer_tail @x group(@xy)
// CHECK-NEXT:      tspipe.producer_tail @y group(@xy)
// CHECK:         tspipe.task @use_x
// CHECK:           %{{.*}} = tspipe.consumer_wait @x group(@xy)
// CHECK-NEXT:      tspipe.consumer_release @x group(@xy)
gpu.func @pipeline_groups(%n: index) kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(7) {
    tspipe.pipeline @a config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @b config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @ab merge [@a, @b]
    tspipe.pipeline @x config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline @y config(<async_async, num_stages = 2,
        producer_group = <thread, 32>, consumer_group = <thread, 32>>)
    tspipe.pipeline_group @xy fork [@x, @y] config(<async_async,
        num_stages = 2, producer_group = <thread, 32>,
        consumer_group = <thread, 64>>)
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
    tspipe.task @merge_use warps(2, 1) consumes [@a, @b] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %r = tspipe.consumer_try_wait @a group(@ab)
        %s = tspipe.consumer_wait @a group(@ab) ready(%r)
        %t = tspipe.consumer_wait @b group(@ab)
        tspipe.consumer_release @ab
      }
    }
    tspipe.task @fork_load warps(3, 1) produces [@x, @y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %p = tspipe.producer_try_acquire @x group(@xy)
        %s = tspipe.producer_acquire @x group(@xy) ready(%p)
        %t = tspipe.producer_acquire @y group(@xy)
        tspipe.producer_commit @xy
      }
      tspipe.producer_tail @x group(@xy)
      tspipe.producer_tail @y group(@xy)
    }
    tspipe.task @use_x warps(4, 1) consumes [@x] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @x group(@xy)
        tspipe.consumer_release @x group(@xy)
      }
    }
    tspipe.task @use_y warps(5, 1) consumes [@y] {
      tspipe.domain_loop %i = %c0 to %n step %c1 {
        %s = tspipe.consumer_wait @y group(@xy)
        tspipe.consumer_release @y group(@xy)
      }
    }
  }
  gpu.return
}
// An empty domain loop body, an empty kernel, and attribute dictionaries on
// the region ops (printed after the `attributes` keyword).
// CHECK-LABEL: gpu.func @empty_bodies
// CHECK:       tspipe.kernel warps(1) attributes {tag = "k"} {
// CHECK-NEXT:    tspipe.task @idle warps(0, 1) attributes {tag = "t"} {
// CHECK-NEXT:      tspipe.domain_loop %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      } attributes {tag = "d"}
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-LABEL: gpu.func @empty_kernel
// CHECK:       tspipe.kernel warps(32) {
// CHECK-NEXT:  }
gpu.func @empty_bodies() kernel {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tspipe.kernel warps(1) attributes {tag = "k"} {
    tspipe.task @idle warps(0, 1) attributes {tag = "t"} {
      tspipe.domain_loop %i = %c0 to %c1 step %c1 {
      } attributes {tag = "d"}
    }
  }
  gpu.return
}
gpu.func @empty_kernel() kernel {
  tspipe.kernel warps(32) {
  }
  gpu.return
}

}

// The config and group attributes stand on their own too. The first is the
// example of #tspipe.config's description (the default layout is dropped).
// CHECK-LABEL: func.func @standalone_attributes
// CHECK-SAME:    tspipe.cfg = #tspipe.config<umma_umma, num_stages = 2, producer_group = <thread, 1>, consumer_group = <thread, 1>, cta_layout_vmnk = [2, 1, 1, 1]>
// CHECK-SAME:    tspipe.doc = #tspipe.config<tma_async, num_stages = 4, num_bytes = 16384, producer_group = <thread, 1>, consumer_group = <thread, 4>>
// CHECK-SAME:    tspipe.grp = #tspipe.group<thread_block, 2>
func.func @standalone_attributes() attributes {
    tspipe.doc = #tspipe.config<tma_async, num_stages = 4, num_bytes = 16384,
                   producer_group = <thread, 1>, consumer_group = <thread, 4>,
                   cta_layout_vmnk = [1, 1, 1, 1]>,
    tspipe.cfg = #tspipe.config<umma_umma, num_stages = 2,
        producer_group = <thread, 1>, consumer_group = <thread, 1>,
        cta_layout_vmnk = [2, 1, 1, 1]>,
    tspipe.grp = #tspipe.group<thread_block, 2>} {
  return
}
