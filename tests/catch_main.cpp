// The one Catch2 main shared by the test executables (compiled once).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
