// The `attnlab` tool's main() under another name, for the in-process CLI fuzz targets (cli.cpp).
#define main attnlab_cli_main
#include "cli/main.cpp"
