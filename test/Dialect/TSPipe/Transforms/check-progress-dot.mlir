// RUN: rm -rf %t && not tspipe-opt %s --tspipe-check-progress=dot-dir=%t -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=GRAPH --input-file=%t/mismatch.graph.dot
// RUN: FileCheck %s --check-prefix=TIMELINE --input-file=%t/mismatch.timeline.dot
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/mismatch.progress.json

// With dot-dir, tspipe-check-progress writes the dependency graph, the
// counterexample's per-stage timeline and the verdict of each kernel, named
// after its gpu.func.

// GRAPH-LABEL: digraph tspipe_dependencies {
// GRAPH-DAG:     "pipe:ring" [shape=ellipse, label="@ring\n2 stages"];
// GRAPH-DAG:     "task:producer" [shape=box, style=filled
// GRAPH-DAG:     "task:consumer" [shape=box, style="filled,bold", fillcolor="#f4cccc"
// GRAPH-DAG:     "task:producer" -> "pipe:ring" [label="acquire, commit"];
// GRAPH-DAG:     "pipe:ring" -> "task:consumer" [label="wait, release", style=dashed];

// TIMELINE-LABEL: digraph tspipe_timeline {
// TIMELINE:         label="[R70] tasks deadlock with domain lengths @producer = 0, @consumer = 1
// TIMELINE:         label="@ring full stage 0";
// TIMELINE:         label="{{[0-9]+}}: @consumer\nwait (it 0, phase 0)", fillcolor="#f4cccc"

// JSON:      "counterexample": {
// JSON-DAG:    "kind": "deadlock",
// JSON-DAG:    "rule": "R70",
// JSON-DAG:    "consumer": 1
// JSON-DAG:    "producer": 0
// JSON:      "kernel": "mismatch",
// JSON:      "ok": false,

gpu.module @mismatch {
  gpu.func @mismatch(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = arith.addi %n, %c1 : index
    tspipe.kernel warps(2) {
      tspipe.pipeline @ring config(<async_async, num_stages = 2, producer_group = <thread, 32>, consumer_group = <thread, 32>>)
      tspipe.task @producer warps(0, 1) produces [@ring] {
        tspipe.domain_loop %i = %c0 to %n step %c1 {
          %s = tspipe.producer_acquire @ring
          tspipe.producer_commit @ring
        }
      }
      tspipe.task @consumer warps(1, 1) consumes [@ring] {
        tspipe.domain_loop %i = %c0 to %m step %c1 {
          %s = tspipe.consumer_wait @ring
          tspipe.consumer_release @ring
        }
      }
    }
    gpu.return
  }
}
