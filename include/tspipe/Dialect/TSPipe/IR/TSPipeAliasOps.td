//===- TSPipeAliasOps.td - buffers and alias groups --------*- tablegen -*-===//
//
// Storage without a pipeline (TS's unpipelined resources with an SMEM or
// TMEM allocation) and alias groups: resources whose storage is placed at
// one offset because their lifetimes do not overlap (TS's
// SmemAllocator/TmemAllocator.add_alias_group). Included from TSPipeOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef TSPIPE_ALIAS_OPS_TD
#define TSPIPE_ALIAS_OPS_TD

def TSPipe_BufferOp : TSPipe_Op<"buffer", [Symbol, HasParent<"KernelOp">]> {
  let summary = "shared or tensor memory without a pipeline";
  let description = [{
    A data buffer that no pipeline guards (TS: a resource without a
    `pipeline_config` that declares an SMEM or TMEM allocation), e.g. an
    epilogue's staging area. Exactly one of `smem_bytes(N)` (N bytes of
    shared memory) and `tmem_columns(N)` (N tensor-memory columns) is given.
    Tasks address it with `tspipe.buffer_address` (shared memory) or
    `tspipe.tmem_column` (tensor memory); nothing orders their accesses
    except what the IR says (program order, pipelines, named barriers), so
    a buffer is normally one member of a `tspipe.alias_group` or used by a
    single task.

    `buffer_offset` (bytes into the kernel's dynamic shared memory, 128-byte
    aligned) and `tmem_offset` (the first column) are set by
    `tspipe-allocate-smem`.

    Example:

    ```mlir
    tspipe.buffer @staging smem_bytes(8192)
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<I64Attr>:$smem_bytes,
                       OptionalAttr<I64Attr>:$tmem_columns,
                       OptionalAttr<I64Attr>:$buffer_offset,
                       OptionalAttr<I64Attr>:$tmem_offset);
  let assemblyFormat = [{
    $sym_name (`smem_bytes` `(` $smem_bytes^ `)`)?
    (`tmem_columns` `(` $tmem_columns^ `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def TSPipe_AliasGroupOp : TSPipe_Op<"alias_group", [
    Symbol, HasParent<"KernelOp">]> {
  let summary = "resources that share shared or tensor memory, phase by phase";
  let description = [{
    TS's alias group (`SmemAllocator.add_alias_group`,
    `TmemAllocator.add_alias_group`): `phases` is a list of at least two
    phases, each a list of resources (`tspipe.pipeline` data buffers or
    `tspipe.buffer`s) whose storage in `smem` (bytes: a pipeline's or
    buffer's `smem_bytes`) or `tmem` (columns: `tmem_columns`) coexists.
    Every phase is laid out from the group's one base offset (members of a
    phase one after the other, each 128-byte aligned in shared memory), and
    the group takes the size of its largest phase (docs/Protocols.md, Alias
    groups).

    The phases are in time order. Reuse is race-free only if every use of a
    resource of one phase is finished before a later phase's resource is
    first written; the kernel's verifier (rule X23) derives that order from
    the IR (program order, each pipeline's full and empty barriers, named
    barriers) and rejects the group when it does not follow, naming the
    access that is not ordered. A consumer that reads asynchronously
    (tma_umma, async_umma, umma_umma: the MMA) is finished only when a later
    tcgen05 commit of its task completes, not at its release. Structure
    (members, spaces, sizes) is rule X24.

    Example:

    ```mlir
    tspipe.alias_group @reuse smem [[@ab], [@staging]]
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, UnitAttr:$tmem,
                       ArrayAttr:$phases);
  let assemblyFormat = [{
    $sym_name (`tmem` $tmem^) : (`smem`)? $phases attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The members of each phase, resolved (null where a name does not
    /// resolve to a tspipe.pipeline or tspipe.buffer).
    ::llvm::SmallVector<::llvm::SmallVector<::mlir::Operation *>>
    getPhaseMembers();
    /// Bytes (smem) or columns (tmem) `member` takes in this group's space.
    static std::optional<int64_t> getMemberSize(::mlir::Operation *member,
                                                bool tmem);
  }];
}

def TSPipe_BufferAddressOp : TSPipe_Op<"buffer_address", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the shared-memory address of a tspipe.buffer";
  let description = [{
    The address of the first byte of a shared-memory `tspipe.buffer`
    (dynamic shared memory + `buffer_offset`, 128-byte aligned). Only in a
    task. Its uses are the accesses X23 orders.

    Example: `%p = tspipe.buffer_address @staging : !llvm.ptr<3>`
  }];
  let arguments = (ins FlatSymbolRefAttr:$buffer);
  let results = (outs LLVM_PointerInAddressSpace<3>:$address);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($address))";
}

def TSPipe_TmemColumnOp : TSPipe_Op<"tmem_column", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the first tensor-memory column of a resource";
  let description = [{
    The first column `tspipe-allocate-smem` gave a pipeline with
    `tmem_columns` or a tensor-memory `tspipe.buffer` (its `tmem_offset`),
    as an i32 to add to the address `tcgen05.alloc` returned. Only in a
    task. Its uses are the accesses X23 orders.

    Example: `%col = tspipe.tmem_column @acc : i32`
  }];
  let arguments = (ins FlatSymbolRefAttr:$resource);
  let results = (outs I32:$column);
  let assemblyFormat = "$resource attr-dict `:` type($column)";
}

#endif // TSPIPE_ALIAS_OPS_TD
