/*===- tspipe-capi-test.c - tspipe's C API from a C program --------------===*\
|*                                                                            *|
|* Usage: tspipe-capi-test FILE.mlir nvvm|ptx|attrs                           *|
|*   nvvm   parse, verify, run tspipe-to-nvvm, print the module               *|
|*   ptx    parse, verify, lower to PTX, print each module's name, chip, PTX  *|
|*   attrs  #tspipe.group and #tspipe.config through the checked getters      *|
|*          (FILE is not read)                                                *|
|* Diagnostics go to stderr as "diag: <message>"; the exit status is 1 after  *|
|* any failure.                                                               *|
|* Built against libTSPipe.so and libMLIR-C.so (one MLIR copy).               *|
\*===----------------------------------------------------------------------===*/

#include "tspipe-c/Attributes.h"
#include "tspipe-c/Dialects.h"
#include "tspipe-c/Lowering.h"
#include "tspipe-c/Registration.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToFile(MlirStringRef str, void *userData) {
  fwrite(str.data, 1, str.length, (FILE *)userData);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fflush(stdout);
  fputs("diag: ", stderr);
  mlirDiagnosticPrint(diagnostic, printToFile, stderr);
  fputc('\n', stderr);
  return mlirLogicalResultSuccess();
}

static void printPTX(MlirStringRef name, MlirStringRef chip, MlirStringRef ptx,
                     void *userData) {
  (void)userData;
  printf("ptx module ");
  printToFile(name, stdout);
  printf(" chip ");
  printToFile(chip, stdout);
  printf(" bytes %zu\n", ptx.length);
  printToFile(ptx, stdout);
  putchar('\n');
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(f);
  return text;
}

static int checkGroups(MlirContext ctx) {
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  /* Agent 1 = warp. */
  MlirAttribute good = tspipeCooperativeGroupAttrGetChecked(loc, 1, 4);
  if (mlirAttributeIsNull(good) || !tspipeAttributeIsACooperativeGroup(good))
    return 1;
  printf("group agent %u size %lld\n", tspipeCooperativeGroupAttrGetAgent(good),
         (long long)tspipeCooperativeGroupAttrGetSize(good));
  MlirAttribute bad = tspipeCooperativeGroupAttrGetChecked(loc, 1, 0);
  printf("bad group %s\n", mlirAttributeIsNull(bad) ? "rejected" : "accepted");
  return mlirAttributeIsNull(bad) ? 0 : 1;
}

static int checkConfig(MlirContext ctx) {
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirAttribute parsed = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#tspipe.config<async_async, num_stages = 4, "
               "producer_group = <thread, 64>, consumer_group = <thread, 64>>"));
  if (mlirAttributeIsNull(parsed) || !tspipeAttributeIsAPipelineConfig(parsed))
    return 1;
  TSPipePipelineConfigFields fields;
  tspipePipelineConfigAttrGetFields(parsed, &fields);
  printf("config type %u stages %lld producer %lld consumer %lld\n",
         fields.pipelineType, (long long)fields.numStages,
         (long long)tspipeCooperativeGroupAttrGetSize(fields.producerGroup),
         (long long)tspipeCooperativeGroupAttrGetSize(fields.consumerGroup));
  /* The same fields back through the checked getter: the same attribute. */
  MlirAttribute rebuilt = tspipePipelineConfigAttrGetChecked(loc, &fields);
  printf("rebuilt %s\n",
         mlirAttributeEqual(rebuilt, parsed) ? "equal" : "different");
  fields.numStages = 0;
  MlirAttribute bad = tspipePipelineConfigAttrGetChecked(loc, &fields);
  printf("bad config %s\n", mlirAttributeIsNull(bad) ? "rejected" : "accepted");
  return mlirAttributeEqual(rebuilt, parsed) && mlirAttributeIsNull(bad) ? 0
                                                                         : 1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s FILE.mlir nvvm|ptx|attrs\n", argv[0]);
    return 2;
  }
  const char *mode = argv[2];

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tspipeRegisterCompilationDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  tspipeRegisterPasses();
  tspipeRegisterCompilationPasses();

  int status = 0;
  if (strcmp(mode, "attrs") == 0) {
    mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("tspipe"));
    status = checkGroups(ctx) || checkConfig(ctx);
    mlirContextDestroy(ctx);
    return status;
  }

  char *text = readFile(argv[1]);
  if (!text) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    mlirContextDestroy(ctx);
    return 1;
  }
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  free(text);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    mlirContextDestroy(ctx);
    return 1;
  }
  if (!mlirOperationVerify(mlirModuleGetOperation(module))) {
    fprintf(stderr, "verification failed\n");
    status = 1;
  } else {
    TSPipeLoweringOptions options = tspipeLoweringOptionsGetDefault();
    if (strcmp(mode, "nvvm") == 0) {
      if (mlirLogicalResultIsFailure(tspipeLowerToNVVM(module, &options))) {
        fprintf(stderr, "lowering failed\n");
        status = 1;
      } else {
        mlirOperationPrint(mlirModuleGetOperation(module), printToFile,
                           stdout);
        putchar('\n');
      }
    } else if (strcmp(mode, "ptx") == 0) {
      if (mlirLogicalResultIsFailure(
              tspipeLowerToPTX(module, &options, printPTX, NULL))) {
        fprintf(stderr, "lowering failed\n");
        status = 1;
      }
    } else {
      fprintf(stderr, "unknown mode %s\n", mode);
      status = 2;
    }
  }
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return status;
}
