// RUN: bash %S/../../docs/update.sh --check
//
// The generated reference docs (docs/Dialects/TSPipe.md from the dialect's
// ODS, docs/Passes.md from the Passes.td files) match the .td files: a
// change to an op, attribute or pass description must come with
// docs/update.sh's output.
