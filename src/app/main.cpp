#include <iostream>

#include "app/cli.hpp"

int main(int argc, char** argv) { return fhn::cli_main(argc, argv, std::cout, std::cerr); }
