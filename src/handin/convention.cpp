#include "handin/convention.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <system_error>

#include "core/text.hpp"
#include "handin/command_template.hpp"
#include "handin/java_sources.hpp"
#include "handin/makefile_rules.hpp"
#include "handin/manifest.hpp"
#include "handin/unpack.hpp"

namespace arena::handin {
namespace {

namespace fs = std::filesystem;
using Found = std::optional<Parsed<Recipe>>;  // nullopt: this way does not apply

struct Course {
  std::string_view game;
  std::string_view title;
  std::string_view args;  // what the course's agents were given
};
constexpr Course kCourses[] = {
    {"fission", "Fission", "{host} {port}"},
    {"murus", "Murus Gallicus", "{host} {port}"},
    {"morris", "Nine Men's Morris", "{side:White|Black}"},
    {"soccer", "Paper Soccer", "{side:A|B} {seed}"},
};

constexpr std::size_t kMaxFoundNames = 12;
constexpr std::size_t kMaxMakefileBytes = 1 << 20;

const Course* find_course(std::string_view game) {
  for (const auto& c : kCourses)
    if (c.game == game) return &c;
  return nullptr;
}

Found ok(Recipe r) {
  return Parsed<Recipe>::ok(std::move(r));
}
Found fail(std::string why) {
  return Parsed<Recipe>::fail(std::move(why));
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(fs::symlink_status(p, ec));
}

bool is_executable_file(const fs::path& p) {
  std::error_code ec;
  const auto st = fs::symlink_status(p, ec);
  return fs::is_regular_file(st) && (st.permissions() & fs::perms::owner_exec) != fs::perms::none;
}

std::string read_text(const fs::path& p, std::size_t max_bytes) {
  std::ifstream in(p, std::ios::binary);
  std::string text(max_bytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

// The names at the top of the hand-in, sorted, folders with a '/'.
std::vector<std::string> top_names(const fs::path& root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const bool folder = fs::is_directory(e.symlink_status(ec));
    names.push_back(printable(e.path().filename().string(), 60) + (folder ? "/" : ""));
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string found_list(const fs::path& root) {
  auto names = top_names(root);
  if (names.empty()) return "found: nothing";
  const std::size_t more = names.size() > kMaxFoundNames ? names.size() - kMaxFoundNames : 0;
  names.resize(names.size() - more);
  return fmt::format("found: {}{}", fmt::join(names, ", "),
                     more ? fmt::format(" and {} more", more) : "");
}

std::string run_line(std::string_view program, const Course& c) {
  return fmt::format("{} {}", program, c.args);
}

Found from_manifest(const fs::path& root, const Course& c) {
  if (!fs::exists(fs::symlink_status(root / kManifestName))) return std::nullopt;
  auto m = read_manifest(root / kManifestName);
  if (!m) return fail(m.error);
  Recipe r;
  r.kind = RecipeKind::Manifest;
  r.how = std::string(kManifestName);
  if (m.value->build) r.build = std::vector<std::string>{"/bin/sh", "-c", *m.value->build};
  r.run.push_back({"", m.value->run});
  const auto& t = m.value->run_template;
  if ((c.game == "morris" || c.game == "soccer") && !t.uses(Placeholder::Side))
    r.notes.push_back("the run command has no {side}: the agent is not told which side it plays");
  if ((c.game == "fission" || c.game == "murus") && !t.uses(Placeholder::Port))
    r.notes.push_back("the run command has no {port}: the agent is not told the server's port");
  return ok(std::move(r));
}

// Paper Soccer (Bucharest 2013): `make build` makes ./bot or Bot.class; `make clean` removes it.
Found soccer_makefile(const fs::path& root, const Course& c) {
  if (!is_file(root / "Makefile")) return std::nullopt;
  const auto targets = makefile_targets(read_text(root / "Makefile", kMaxMakefileBytes));
  if (!targets.count("build"))
    return fail(
        "the Makefile has no 'build' rule (the course's Makefile has the rules 'build' and "
        "'clean')");
  Recipe r;
  r.kind = RecipeKind::Makefile;
  r.how = "Makefile with 'build' (Paper Soccer convention)";
  r.build = std::vector<std::string>{"make", "build"};
  if (!targets.count("clean"))
    r.notes.push_back("the Makefile has no 'clean' rule (the course asks for 'build' and 'clean')");
  // Which of the two the build makes is known only after it; Java first when the hand-in is Java.
  RunChoice native{"bot", run_line("./bot", c)}, java{"Bot.class", run_line("java Bot", c)};
  if (is_file(root / "Bot.java") || is_file(root / "Bot.class"))
    r.run = {java, native};
  else
    r.run = {native, java};
  return ok(std::move(r));
}

Found prebuilt_soccer_bot(const fs::path& root, const Course& c) {
  Recipe r;
  if (is_executable_file(root / "bot")) {
    r.kind = RecipeKind::Program;
    r.how = "the program bot (Paper Soccer convention)";
    r.run.push_back({"bot", run_line("./bot", c)});
    return ok(std::move(r));
  }
  if (is_file(root / "Bot.class")) {
    r.kind = RecipeKind::Program;
    r.how = "the class Bot (Paper Soccer convention)";
    r.run.push_back({"Bot.class", run_line("java Bot", c)});
    return ok(std::move(r));
  }
  return std::nullopt;
}

std::vector<std::string> top_jars(const fs::path& root) {
  std::vector<std::string> jars;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec))
    if (fs::is_regular_file(e.symlink_status(ec)) &&
        to_upper(e.path().extension().string()) == ".JAR")
      jars.push_back(e.path().filename().string());
  std::sort(jars.begin(), jars.end());
  return jars;
}

// A runnable jar (Bologna and Calabria agents were `java -jar X.jar ...`). `no_main` gets the
// reason when there are jars but none can run, for when nothing else fits either.
Found runnable_jar(const fs::path& root, const Course& c, std::string& no_main) {
  const auto jars = top_jars(root);
  std::vector<std::string> runnable, others;
  for (const auto& jar : jars) {
    const auto main = jar_main_class(root / jar);
    if (main) {
      runnable.push_back(jar);
    } else {
      others.push_back(jar);
      if (no_main.empty()) no_main = fmt::format("{}: {}", printable(jar), main.error);
    }
  }
  if (runnable.empty()) return std::nullopt;
  if (runnable.size() > 1)
    return fail(fmt::format(
        "several runnable jars ({}): say which one runs in arena.json, e.g. {{\"run\": \"java "
        "-jar {} {}\"}}",
        fmt::join(runnable, ", "), runnable.front(), c.args));
  Recipe r;
  r.kind = RecipeKind::Jar;
  r.how = fmt::format("the runnable jar {} ({} convention)", printable(runnable.front()), c.title);
  const bool spaces = runnable.front().find_first_of(" \t'\"{}") != std::string::npos;
  r.run.push_back({runnable.front(), spaces ? "" : run_line("java -jar " + runnable.front(), c)});
  if (spaces)
    return fail(
        fmt::format("the jar's name '{}' needs arena.json: it holds spaces, "
                    "quotes or braces",
                    printable(runnable.front())));
  for (const auto& other : others)
    r.notes.push_back(
        fmt::format("{} is not runnable (no Main-Class): taken as a library", printable(other)));
  return ok(std::move(r));
}

// A program at the top: an executable file with no extension or ending in .sh.
Found program(const fs::path& root, const Course& c) {
  std::vector<std::string> programs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const auto ext = e.path().extension().string();
    const auto name = e.path().filename().string();
    if ((ext.empty() || ext == ".sh") && !name.starts_with(".") && is_executable_file(e.path()))
      programs.push_back(name);
  }
  if (programs.empty()) return std::nullopt;
  std::sort(programs.begin(), programs.end());
  if (programs.size() > 1)
    return fail(fmt::format(
        "several programs ({}): say which one runs in arena.json, e.g. {{\"run\": \"./{} {}\"}}",
        fmt::join(programs, ", "), programs.front(), c.args));
  const auto& name = programs.front();
  if (name.find_first_of(" \t'\"{}") != std::string::npos)
    return fail(
        fmt::format("the program's name '{}' needs arena.json: it holds spaces, quotes "
                    "or braces",
                    printable(name)));
  Recipe r;
  r.kind = RecipeKind::Program;
  r.how = fmt::format("the program {} ({} convention)", printable(name), c.title);
  r.run.push_back({name, run_line("./" + name, c)});
  return ok(std::move(r));
}

// Java sources and no build file: javac all of them, then start the one class with a main.
Found java_sources(const fs::path& root, const Course& c) {
  const auto sources = find_java_sources(root);
  if (sources.files.empty()) return std::nullopt;
  std::vector<std::string> mains = sources.mains;
  // Paper Soccer's course names the class: Bot.
  if (c.game == "soccer" && std::count(mains.begin(), mains.end(), "Bot")) mains = {"Bot"};
  if (mains.empty())
    return fail(fmt::format(
        "{} Java source files, but no class has 'public static void main': say what runs in "
        "arena.json",
        sources.files.size()));
  if (mains.size() > 1)
    return fail(
        fmt::format("several classes have a main ({}): say which one runs in arena.json, e.g. "
                    "{{\"run\": \"java -cp classes {} {}\"}}",
                    fmt::join(mains, ", "), mains.front(), c.args));
  if (sources.truncated) return fail(fmt::format("more than {} Java source files", kMaxJavaFiles));
  const auto jars = top_jars(root);
  std::string classpath = "classes";
  for (const auto& jar : jars) classpath += ":" + jar;
  Recipe r;
  r.kind = RecipeKind::JavaSources;
  r.how = fmt::format("{} Java source files, main class {}", sources.files.size(), mains.front());
  std::vector<std::string> build = {"javac", "-d", "classes", "-encoding", "UTF-8"};
  if (!jars.empty()) {
    build.push_back("-cp");
    build.push_back(classpath.substr(std::string_view("classes:").size()));
  }
  build.insert(build.end(), sources.files.begin(), sources.files.end());
  r.build = std::move(build);
  std::string class_file = "classes/" + mains.front() + ".class";
  std::replace(class_file.begin() + 8, class_file.end() - 6, '.', '/');
  if (classpath.find_first_of(" \t'\"{}") != std::string::npos)
    return fail("a jar's name needs arena.json: it holds spaces, quotes or braces");
  r.run.push_back(
      {class_file, run_line(fmt::format("java -cp {} {}", classpath, mains.front()), c)});
  return ok(std::move(r));
}

Found python(const fs::path& root, const Course& c) {
  if (!is_file(root / "main.py")) return std::nullopt;
  Recipe r;
  r.kind = RecipeKind::Python;
  r.how = "main.py (Python)";
  r.run.push_back({"main.py", run_line("python3 main.py", c)});
  return ok(std::move(r));
}

}  // namespace

std::string_view recipe_kind_name(RecipeKind k) {
  switch (k) {
    case RecipeKind::Manifest:
      return "manifest";
    case RecipeKind::Makefile:
      return "makefile";
    case RecipeKind::Jar:
      return "jar";
    case RecipeKind::Program:
      return "program";
    case RecipeKind::JavaSources:
      return "java-sources";
    case RecipeKind::Python:
      return "python";
  }
  return "manifest";
}

std::string handin_game_names() {
  std::vector<std::string_view> names;
  for (const auto& c : kCourses) names.push_back(c.game);
  return fmt::format("{}", fmt::join(names, ", "));
}

Parsed<Recipe> find_recipe(std::string_view game, const fs::path& root) {
  const Course* course = find_course(game);
  if (course == nullptr)
    return Parsed<Recipe>::fail(
        fmt::format("unknown game '{}' ({})", printable(game, 40), handin_game_names()));
  const Course& c = *course;
  if (auto r = from_manifest(root, c)) return std::move(*r);
  if (c.game == "soccer") {
    for (auto way : {soccer_makefile, prebuilt_soccer_bot, java_sources, python})
      if (auto r = way(root, c)) return std::move(*r);
    return Parsed<Recipe>::fail(fmt::format(
        "no Makefile, no bot, no Bot.class, no .java sources, no main.py and no arena.json at "
        "the top of the hand-in ({})",
        found_list(root)));
  }
  std::string no_main;
  if (auto r = runnable_jar(root, c, no_main)) return std::move(*r);
  for (auto way : {program, java_sources, python})
    if (auto r = way(root, c)) return std::move(*r);
  if (!no_main.empty()) return Parsed<Recipe>::fail(no_main);
  return Parsed<Recipe>::fail(fmt::format(
      "no runnable .jar, no program, no .java sources, no main.py and no arena.json at the top "
      "of the hand-in ({})",
      found_list(root)));
}

Parsed<std::string> choose_run(const Recipe& recipe, const fs::path& root) {
  std::vector<std::string> missing;
  for (const auto& choice : recipe.run) {
    std::error_code ec;
    if (choice.needs.empty() || fs::exists(root / choice.needs, ec))
      return Parsed<std::string>::ok(choice.command);
    missing.push_back(choice.needs);
  }
  if (missing.size() == 1)
    return Parsed<std::string>::fail(fmt::format("there is no {} after the build", missing[0]));
  if (missing.size() == 2)
    return Parsed<std::string>::fail(
        fmt::format("the build made neither {} nor {}", missing[0], missing[1]));
  return Parsed<std::string>::fail(
      fmt::format("the build made none of {}", fmt::join(missing, ", ")));
}

}  // namespace arena::handin
