// Saving: through a symbolic link to the file it names, keeping the file's permissions, and leaving
// the old file whole when the write fails.
#include "io/map_io.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace sightline;

using sightline::test::slurp;

namespace {

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("sightline-save-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

}  // namespace

TEST_CASE("save: a symbolic link is written through, and stays a link", "[io]") {
    const fs::path dir = scratch("link");
    fs::create_directories(dir / "maps");
    std::ofstream(dir / "maps" / "real.json") << "old";
    fs::create_symlink("maps/real.json", dir / "link.json");          // relative
    fs::create_symlink(dir / "link.json", dir / "link-to-link.json");  // a chain
    writeFileAtomically((dir / "link-to-link.json").string(), "new");
    CHECK(fs::is_symlink(fs::symlink_status(dir / "link.json")));
    CHECK(fs::is_symlink(fs::symlink_status(dir / "link-to-link.json")));
    CHECK(slurp((dir / "maps" / "real.json").string()) == "new");
    // A link to a file not there yet: the file is made where it points.
    fs::create_symlink("maps/later.json", dir / "dangling.json");
    writeFileAtomically((dir / "dangling.json").string(), "made");
    CHECK(fs::is_symlink(fs::symlink_status(dir / "dangling.json")));
    CHECK(slurp((dir / "maps" / "later.json").string()) == "made");
    // No temporary file is left beside anything.
    for (const auto& e : fs::recursive_directory_iterator(dir)) CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("save: a file keeps its permissions", "[io]") {
    const fs::path dir = scratch("mode");
    const fs::path file = dir / "shared.json";
    std::ofstream(file) << "old";
    REQUIRE(::chmod(file.c_str(), 0640) == 0);
    writeFileAtomically(file.string(), "new");
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0640);
    CHECK(slurp(file.string()) == "new");
    fs::remove_all(dir);
}

TEST_CASE("save: a write that cannot happen leaves the old file whole and says where", "[io]") {
    const fs::path dir = scratch("fail");
    const fs::path file = dir / "map.json";
    std::ofstream(file) << "old";
    CHECK_THROWS_WITH(writeFileAtomically((dir / "missing" / "map.json").string(), "new"), Catch::Contains("missing/map.json"));
    // A loop of links is refused, not followed for ever.
    fs::create_symlink("b.json", dir / "a.json");
    fs::create_symlink("a.json", dir / "b.json");
    CHECK_THROWS_WITH(writeFileAtomically((dir / "a.json").string(), "x"), Catch::Contains("symbolic links"));
    CHECK(slurp(file.string()) == "old");
    fs::remove_all(dir);
}
