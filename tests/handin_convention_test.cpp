#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "handin/command_template.hpp"
#include "handin/convention.hpp"
#include "handin/java_sources.hpp"
#include "handin/makefile_rules.hpp"
#include "handin/manifest.hpp"
#include "support/temp_dir.hpp"
#include "support/test_archive.hpp"

namespace arena::handin {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using V = std::vector<std::string>;

// A hand-in's folder, made file by file.
class Convention : public ::testing::Test {
 protected:
  TempDir tmp;
  fs::path root = tmp.path();

  void file(const std::string& name, const std::string& text, bool executable = false) {
    fs::create_directories((root / name).parent_path());
    std::ofstream(root / name, std::ios::binary) << text;
    if (executable) fs::permissions(root / name, static_cast<fs::perms>(0755));
  }
  void jar(const std::string& name, const std::string& main_class) {
    testing::TestArchive a(root / name, testing::ArchiveFormat::Zip);
    a.file("META-INF/MANIFEST.MF",
           "Manifest-Version: 1.0\n" +
               (main_class.empty() ? std::string() : "Main-Class: " + main_class + "\n") + "\n");
    a.file("Agent.class", "\xca\xfe\xba\xbe");
    a.close();
  }
  Recipe recipe(const std::string& game) {
    auto r = find_recipe(game, root);
    EXPECT_TRUE(r) << r.error;
    return r ? *r.value : Recipe{};
  }
  std::string error(const std::string& game) {
    auto r = find_recipe(game, root);
    EXPECT_FALSE(r) << r.value->how;
    return r.error;
  }
};

constexpr const char* kSoccerMakefile =
    "CFLAGS = -Wall\n.PHONY: build clean\nbuild: bot\nbot: bot.c\n\tcc $(CFLAGS) -o bot bot.c\n"
    "clean:\n\trm -f bot\n";

TEST_F(Convention, PaperSoccerMakefileMakingBot) {
  file("Makefile", kSoccerMakefile);
  file("bot.c", "int main(void) { return 0; }\n");
  const auto r = recipe("soccer");
  EXPECT_EQ(r.kind, RecipeKind::Makefile);
  EXPECT_EQ(r.how, "Makefile with 'build' (Paper Soccer convention)");
  EXPECT_EQ(r.build, (V{"make", "build"}));
  ASSERT_EQ(r.run.size(), 2u);
  EXPECT_EQ(r.run[0].needs, "bot");
  EXPECT_EQ(r.run[0].command, "./bot {side:A|B} {seed}");
  EXPECT_EQ(r.run[1].command, "java Bot {side:A|B} {seed}");
  EXPECT_TRUE(r.notes.empty());
  // After the build, whichever it made.
  EXPECT_EQ(choose_run(r, root).error, "the build made neither bot nor Bot.class");
  file("Bot.class", "");
  EXPECT_EQ(*choose_run(r, root).value, "java Bot {side:A|B} {seed}");
  file("bot", "", true);
  EXPECT_EQ(*choose_run(r, root).value, "./bot {side:A|B} {seed}");
}

TEST_F(Convention, PaperSoccerMakefileInJava) {
  file("Makefile", "build:\n\tjavac Bot.java\nclean:\n\trm -f *.class\n");
  file("Bot.java", "public class Bot { public static void main(String[] a) {} }\n");
  const auto r = recipe("soccer");
  ASSERT_EQ(r.run.size(), 2u);
  EXPECT_EQ(r.run[0].needs, "Bot.class");
  EXPECT_EQ(r.run[0].command, "java Bot {side:A|B} {seed}");
}

TEST_F(Convention, PaperSoccerMakefileRules) {
  file("Makefile", "all:\n\tcc -o bot bot.c\n");
  EXPECT_EQ(error("soccer"),
            "the Makefile has no 'build' rule (the course's Makefile has the rules 'build' and "
            "'clean')");
  file("Makefile", "build:\n\tcc -o bot bot.c\n");
  EXPECT_EQ(recipe("soccer").notes,
            V{"the Makefile has no 'clean' rule (the course asks for 'build' and 'clean')"});
}

TEST_F(Convention, PaperSoccerWithoutAMakefile) {
  file("bot", "#!/bin/sh\n", true);
  auto r = recipe("soccer");
  EXPECT_EQ(r.how, "the program bot (Paper Soccer convention)");
  EXPECT_FALSE(r.build);
  EXPECT_EQ(r.run.at(0).command, "./bot {side:A|B} {seed}");
  fs::remove(root / "bot");
  file("Bot.java", "public class Bot { public static void main(String[] a) {} }\n");
  file("Board.java", "class Board { static void main() {} }\n");
  file("Test.java", "public class Test { public static void main(String[] a) {} }\n");
  r = recipe("soccer");  // the course's class wins over a second main
  EXPECT_EQ(r.kind, RecipeKind::JavaSources);
  EXPECT_EQ(r.build, (V{"javac", "-d", "classes", "-encoding", "UTF-8", "Board.java", "Bot.java",
                        "Test.java"}));
  EXPECT_EQ(r.run.at(0).command, "java -cp classes Bot {side:A|B} {seed}");
  EXPECT_EQ(r.run.at(0).needs, "classes/Bot.class");
}

TEST_F(Convention, NothingFoundSaysWhatWasLookedForAndFound) {
  file("README.txt", "my bot\n");
  file("src/notes.md", "");
  EXPECT_EQ(error("soccer"),
            "no Makefile, no bot, no Bot.class, no .java sources, no main.py and no arena.json at "
            "the top of the hand-in (found: README.txt, src/)");
  EXPECT_EQ(error("morris"),
            "no runnable .jar, no program, no .java sources, no main.py and no arena.json at the "
            "top of the hand-in (found: README.txt, src/)");
  fs::remove_all(root / "src");
  fs::remove(root / "README.txt");
  EXPECT_EQ(error("fission"),
            "no runnable .jar, no program, no .java sources, no main.py and no arena.json at the "
            "top of the hand-in (found: nothing)");
  EXPECT_EQ(find_recipe("chess", root).error,
            "unknown game 'chess' (fission, murus, morris, soccer)");
}

TEST_F(Convention, MorrisRunnableJar) {
  jar("MulinoAgent.jar", "it.unibo.ai.didattica.mulino.client.Agent");
  jar("gson.jar", "");
  const auto r = recipe("morris");
  EXPECT_EQ(r.kind, RecipeKind::Jar);
  EXPECT_EQ(r.how, "the runnable jar MulinoAgent.jar (Nine Men's Morris convention)");
  EXPECT_FALSE(r.build);
  EXPECT_EQ(r.run.at(0).command, "java -jar MulinoAgent.jar {side:White|Black}");
  EXPECT_EQ(r.notes, V{"gson.jar is not runnable (no Main-Class): taken as a library"});
}

TEST_F(Convention, AJarWithoutMainClass) {
  jar("agent.jar", "");
  EXPECT_EQ(error("morris"), "agent.jar: the jar has no Main-Class in META-INF/MANIFEST.MF");
  // Sources beside it are built with the jar on the class path.
  file("src/it/unibo/Agent.java",
       "package it.unibo;\n// public static void main(String[] a) in a comment\n"
       "public class Agent {\n  public static void main(String... args) {}\n}\n");
  const auto r = recipe("morris");
  EXPECT_EQ(r.kind, RecipeKind::JavaSources);
  EXPECT_EQ(r.build, (V{"javac", "-d", "classes", "-encoding", "UTF-8", "-cp", "agent.jar",
                        "src/it/unibo/Agent.java"}));
  EXPECT_EQ(r.run.at(0).command, "java -cp classes:agent.jar it.unibo.Agent {side:White|Black}");
  EXPECT_EQ(r.run.at(0).needs, "classes/it/unibo/Agent.class");
}

TEST_F(Convention, SeveralRunnableJars) {
  jar("a.jar", "A");
  jar("b.jar", "B");
  EXPECT_EQ(error("fission"),
            "several runnable jars (a.jar, b.jar): say which one runs in arena.json, e.g. "
            "{\"run\": \"java -jar a.jar {host} {port}\"}");
}

TEST_F(Convention, CalabriaJarAndProgram) {
  jar("crAIzy.jar", "it.unical.Client");
  EXPECT_EQ(recipe("fission").run.at(0).command, "java -jar crAIzy.jar {host} {port}");
  EXPECT_EQ(recipe("murus").run.at(0).command, "java -jar crAIzy.jar {host} {port}");
  fs::remove(root / "crAIzy.jar");
  file("client", "#!/bin/sh\n", true);
  file("notes.txt", "", true);  // executable text is not a program
  const auto r = recipe("murus");
  EXPECT_EQ(r.how, "the program client (Murus Gallicus convention)");
  EXPECT_EQ(r.run.at(0).command, "./client {host} {port}");
  file("run.sh", "#!/bin/sh\n", true);
  EXPECT_EQ(error("murus"),
            "several programs (client, run.sh): say which one runs in arena.json, e.g. "
            "{\"run\": \"./client {host} {port}\"}");
}

TEST_F(Convention, JavaSourcesWithSeveralOrNoMain) {
  file("src/A.java", "public class A { public static void main(String[] a) {} }\n");
  file("src/B.java", "class B { static public void main(String[] a) {} }\n");
  EXPECT_EQ(error("morris"),
            "several classes have a main (A, B): say which one runs in arena.json, e.g. {\"run\": "
            "\"java -cp classes A {side:White|Black}\"}");
  file("src/A.java", "public class A { void main() {} String s = \"public static void main(\"; }");
  file("src/B.java", "class B { public void main(String[] a) {} }\n");
  EXPECT_EQ(error("morris"),
            "2 Java source files, but no class has 'public static void main': say what runs in "
            "arena.json");
}

TEST_F(Convention, PythonMain) {
  file("main.py", "print('hi')\n");
  const auto r = recipe("morris");
  EXPECT_EQ(r.kind, RecipeKind::Python);
  EXPECT_EQ(r.run.at(0).command, "python3 main.py {side:White|Black}");
  EXPECT_EQ(recipe("soccer").run.at(0).command, "python3 main.py {side:A|B} {seed}");
}

TEST_F(Convention, TheManifestDecides) {
  file("Makefile", kSoccerMakefile);
  file("arena.json",
       R"({"build": "make -C src", "run": "java -jar a.jar {side:-w|-b} -t {move_seconds}"})");
  const auto r = recipe("morris");
  EXPECT_EQ(r.kind, RecipeKind::Manifest);
  EXPECT_EQ(r.how, "arena.json");
  EXPECT_EQ(r.build, (V{"/bin/sh", "-c", "make -C src"}));
  EXPECT_EQ(r.run.at(0).command, "java -jar a.jar {side:-w|-b} -t {move_seconds}");
  EXPECT_TRUE(r.notes.empty());
  file("arena.json", R"({"run": "./agent --fast"})");
  EXPECT_EQ(recipe("fission").notes,
            V{"the run command has no {port}: the agent is not told the server's port"});
  EXPECT_EQ(recipe("soccer").notes,
            V{"the run command has no {side}: the agent is not told which side it plays"});
  file("arena.json", R"({"run": "./agent {colour}"})");
  EXPECT_EQ(error("soccer").substr(0, 61),
            "arena.json: /run: unknown placeholder {colour} at column 9 (k");
}

TEST(Manifest, Errors) {
  const auto err = [](std::string_view text) { return parse_manifest(text).error; };
  EXPECT_EQ(err(R"({"run": "./bot {side}", "buidl": "make"})"),
            "arena.json: /buidl: unknown key (known: build, run)");
  EXPECT_EQ(err(R"({"run": 5})"), "arena.json: /run: must be a string");
  EXPECT_EQ(err(R"({"run": "./a", "build": ["make"]})"), "arena.json: /build: must be a string");
  EXPECT_EQ(err(R"({"build": "make"})"),
            "arena.json: /: has no \"run\": the command that starts the agent");
  EXPECT_EQ(err(R"({"run": "  "})"), "arena.json: /run: is empty");
  EXPECT_EQ(err(R"({"run": "./a", "run": "./b"})"), "arena.json: /run: is given twice");
  EXPECT_EQ(err(R"(["./a"])"),
            "arena.json: /: must be an object such as {\"run\": \"./bot {side} {seed}\"}");
  EXPECT_EQ(err(R"({"run": "./a",})"), "arena.json: not valid JSON at byte 15");
  EXPECT_EQ(err(R"({"run": "./a '{side}"})"), "arena.json: /run: unclosed quote (') at column 5");
  EXPECT_EQ(err("{\"run\": \"" + std::string(5000, 'x') + "\"}"),
            "arena.json: /run: is longer than 4096 bytes");
  EXPECT_EQ(err(std::string(70000, ' ')), "arena.json: is larger than 65536 bytes");
  const auto ok = parse_manifest(R"({"run": "./bot {side} {seed}"})");
  ASSERT_TRUE(ok) << ok.error;
  EXPECT_FALSE(ok.value->build);
}

TEST(CommandTemplate, ExpandsIntoArgv) {
  const auto t = parse_command_template(
      "java -Xmx1g -jar 'my agent.jar' {side:-w|-b} -t {move_seconds} --ms={move_ms} "
      "\"{host}:{port}\" {white_port} {black_port} {seed} '' {{x}}");
  ASSERT_TRUE(t) << t.error;
  TemplateValues v;
  v.side = Side::Black;
  v.host = "127.0.0.1";
  v.port = 40517;
  v.white_port = 5800;
  v.black_port = 5801;
  v.move_ms = 59'999;
  v.seed = 42;
  EXPECT_EQ(expand(*t.value, v),
            (V{"java", "-Xmx1g", "-jar", "my agent.jar", "-b", "-t", "59", "--ms=59999",
               "127.0.0.1:40517", "5800", "5801", "42", "", "{x}"}));
  v.move_ms = 300;  // at least one second
  v.side = Side::White;
  EXPECT_EQ(expand(*t.value, v).at(4), "-w");
  EXPECT_EQ(expand(*t.value, v).at(6), "1");
}

TEST(CommandTemplate, SideWordsOfTheGame) {
  const auto t = parse_command_template("./bot {side} {seed}");
  ASSERT_TRUE(t);
  TemplateValues v;
  std::tie(v.first_word, v.second_word) = side_words("soccer");
  v.seed = 42;
  EXPECT_EQ(expand(*t.value, v), (V{"./bot", "A", "42"}));
  v.side = Side::Black;
  EXPECT_EQ(expand(*t.value, v), (V{"./bot", "B", "42"}));
  std::tie(v.first_word, v.second_word) = side_words("morris");
  EXPECT_EQ(expand(*t.value, v), (V{"./bot", "Black", "42"}));
  EXPECT_TRUE(t.value->uses(Placeholder::Seed));
  EXPECT_FALSE(t.value->uses(Placeholder::Port));
}

TEST(CommandTemplate, ValuesNeverSplitOrReparse) {
  const auto t = parse_command_template("run {host}");
  TemplateValues v;
  v.host = "a b {port} 'c'";
  EXPECT_EQ(expand(*t.value, v), (V{"run", "a b {port} 'c'"}));
}

TEST(CommandTemplate, Errors) {
  const auto err = [](std::string_view text) { return parse_command_template(text).error; };
  EXPECT_EQ(err("./a {colour}"),
            "unknown placeholder {colour} at column 5 (known: {side}, {side:FIRST|SECOND}, "
            "{host}, {port}, {white_port}, {black_port}, {move_ms}, {move_seconds}, {seed})");
  EXPECT_EQ(err("./a {side"), "unclosed '{' at column 5 (write {{ for a brace)");
  EXPECT_EQ(err("./a side}"), "'}' at column 9 closes nothing (write }} for a brace)");
  EXPECT_EQ(err("./a \"{side}"), "unclosed quote (\") at column 5");
  EXPECT_EQ(err("./a {side:White}"),
            "{side:White} at column 5 needs the two sides' words, the first's and the second's, "
            "as in {side:White|Black}");
  EXPECT_EQ(err("./a {side:|b}").substr(0, 23), "{side:|b} at column 5 n");
  EXPECT_EQ(err("./a {side:a|b|c}").substr(0, 26), "{side:a|b|c} at column 5 n");
  EXPECT_EQ(err("   "), "the command is empty");
  EXPECT_EQ(err(""), "the command is empty");
  EXPECT_EQ(err("./a\nrm -rf /"), "a control character at column 4");
  EXPECT_EQ(err(std::string(5000, 'a')), "the command is longer than 4096 bytes");
}

TEST(JavaSources, MainAndClassName) {
  EXPECT_TRUE(declares_main("public class A { public static void main(String[] args) {} }"));
  EXPECT_TRUE(declares_main("class A {\n  static public final void main ( String ... a ) {}\n}"));
  EXPECT_FALSE(declares_main("class A { public void main(String[] a) {} }"));
  EXPECT_FALSE(declares_main("class A { /* public static void main(String[] a) */ }"));
  EXPECT_FALSE(declares_main("class A { String s = \"public static void main(\"; }"));
  EXPECT_EQ(java_class_name("package  it.unibo .ai;\nimport x.y;\nclass Q {}", "Agent"),
            "it.unibo.ai.Agent");
  EXPECT_EQ(java_class_name("// package not.this;\nclass Q {}", "Bot"), "Bot");
}

TEST(MakefileRules, Targets) {
  const auto t = makefile_targets(
      "CC := gcc\nX ::= y\nOBJ = a.o:b.o\n.PHONY: build clean\nbuild clean: bot # both\n"
      "\techo build:\nbot: \\\n  fake: x\nrun :: bot\n$(OBJ): %.o\n");
  EXPECT_EQ(t, (std::set<std::string>{"build", "clean", "bot", "run"}));
}

}  // namespace
}  // namespace arena::handin
