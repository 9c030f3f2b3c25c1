// A Nine Men's Morris agent written as the Bologna course's students wrote theirs: a Java program
// started as `java -jar agent.jar White|Black`, talking to the course server with Java object
// serialization (State in, Phase1Action / Phase2Action / PhaseFinalAction out). It plays a random
// legal move, chosen only from the State the server sends, and allocates a little on every move
// as a real JVM agent does. The port comes from ARENA_WHITE_PORT / ARENA_BLACK_PORT (the course's
// 5800 / 5801 without them), the host from ARENA_HOST.
import it.unibo.ai.didattica.mulino.actions.Action;
import it.unibo.ai.didattica.mulino.actions.Phase1Action;
import it.unibo.ai.didattica.mulino.actions.Phase2Action;
import it.unibo.ai.didattica.mulino.actions.PhaseFinalAction;
import it.unibo.ai.didattica.mulino.domain.State;
import it.unibo.ai.didattica.mulino.domain.State.Checker;
import java.io.EOFException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Random;

public class RandomMulinoAgent {
  static final String[][] MILLS = {{"a1", "d1", "g1"}, {"b2", "d2", "f2"}, {"c3", "d3", "e3"},
      {"a4", "b4", "c4"}, {"e4", "f4", "g4"}, {"c5", "d5", "e5"}, {"b6", "d6", "f6"},
      {"a7", "d7", "g7"}, {"a1", "a4", "a7"}, {"b2", "b4", "b6"}, {"c3", "c4", "c5"},
      {"d1", "d2", "d3"}, {"d5", "d6", "d7"}, {"e3", "e4", "e5"}, {"f2", "f4", "f6"},
      {"g1", "g4", "g7"}};
  static final String[][] LINKS = {{"a1", "d1"}, {"d1", "g1"}, {"a1", "a4"}, {"a4", "a7"},
      {"a7", "d7"}, {"d7", "g7"}, {"g7", "g4"}, {"g4", "g1"}, {"b2", "d2"}, {"d2", "f2"},
      {"b2", "b4"}, {"b4", "b6"}, {"b6", "d6"}, {"d6", "f6"}, {"f6", "f4"}, {"f4", "f2"},
      {"c3", "d3"}, {"d3", "e3"}, {"c3", "c4"}, {"c4", "c5"}, {"c5", "d5"}, {"d5", "e5"},
      {"e5", "e4"}, {"e4", "e3"}, {"a4", "b4"}, {"b4", "c4"}, {"e4", "f4"}, {"f4", "g4"},
      {"d1", "d2"}, {"d2", "d3"}, {"d5", "d6"}, {"d6", "d7"}};

  static boolean adjacent(String a, String b) {
    for (String[] l : LINKS)
      if ((l[0].equals(a) && l[1].equals(b)) || (l[0].equals(b) && l[1].equals(a))) return true;
    return false;
  }

  static boolean inMill(HashMap<String, Checker> board, String p) {
    Checker c = board.get(p);
    for (String[] m : MILLS) {
      if (!m[0].equals(p) && !m[1].equals(p) && !m[2].equals(p)) continue;
      if (board.get(m[0]) == c && board.get(m[1]) == c && board.get(m[2]) == c) return true;
    }
    return false;
  }

  // The opponent's pieces a closed mill may remove: those in no mill, or any when all are.
  static List<String> removable(HashMap<String, Checker> board, Checker them) {
    List<String> free = new ArrayList<>(), all = new ArrayList<>();
    for (String p : board.keySet()) {
      if (board.get(p) != them) continue;
      all.add(p);
      if (!inMill(board, p)) free.add(p);
    }
    return free.isEmpty() ? all : free;
  }

  // Every legal action as {from, to, remove}; from is null when placing.
  static List<String[]> moves(State s, Checker us, Checker them) {
    HashMap<String, Checker> board = s.getBoard();
    List<String[]> out = new ArrayList<>();
    int onBoard = us == Checker.WHITE ? s.getWhiteCheckersOnBoard() : s.getBlackCheckersOnBoard();
    boolean placing = s.getCurrentPhase() == State.Phase.FIRST;
    boolean flying = s.getCurrentPhase() == State.Phase.FINAL && onBoard == 3;
    for (String to : s.getPositions()) {
      if (board.get(to) != Checker.EMPTY) continue;
      List<String> froms = new ArrayList<>();
      if (placing) froms.add(null);
      else
        for (String from : s.getPositions())
          if (board.get(from) == us && (flying || adjacent(from, to))) froms.add(from);
      for (String from : froms) {
        HashMap<String, Checker> after = new HashMap<>(board);
        if (from != null) after.put(from, Checker.EMPTY);
        after.put(to, us);
        if (!inMill(after, to)) {
          out.add(new String[] {from, to, null});
          continue;
        }
        for (String r : removable(after, them)) out.add(new String[] {from, to, r});
      }
    }
    return out;
  }

  static Action action(State s, String[] m) {
    if (s.getCurrentPhase() == State.Phase.FIRST) {
      Phase1Action a = new Phase1Action();
      a.setPutPosition(m[1]);
      a.setRemoveOpponentChecker(m[2]);
      return a;
    }
    if (s.getCurrentPhase() == State.Phase.SECOND) {
      Phase2Action a = new Phase2Action();
      a.setFrom(m[0]);
      a.setTo(m[1]);
      a.setRemoveOpponentChecker(m[2]);
      return a;
    }
    PhaseFinalAction a = new PhaseFinalAction();
    a.setFrom(m[0]);
    a.setTo(m[1]);
    a.setRemoveOpponentChecker(m[2]);
    return a;
  }

  static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isEmpty() ? fallback : v;
  }

  static Socket connect(String host, int port) throws Exception {
    for (int attempt = 0;; ++attempt) {
      try {
        return new Socket(host, port);
      } catch (java.io.IOException e) {
        if (attempt >= 300) throw e;
        Thread.sleep(100);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    boolean white = args.length > 0 && args[0].equalsIgnoreCase("white");
    Checker us = white ? Checker.WHITE : Checker.BLACK;
    Checker them = white ? Checker.BLACK : Checker.WHITE;
    int port = Integer.parseInt(
        white ? env("ARENA_WHITE_PORT", "5800") : env("ARENA_BLACK_PORT", "5801"));
    // A second argument: milliseconds to think before each move, as a searching agent would.
    long thinkMs = args.length > 1 ? Long.parseLong(args[1]) : 0;
    Random random = new Random(white ? 1 : 2);
    List<byte[]> kept = new ArrayList<>();  // what a searching agent's tables would hold
    try (Socket socket = connect(env("ARENA_HOST", "localhost"), port)) {
      ObjectOutputStream out = new ObjectOutputStream(socket.getOutputStream());
      out.flush();
      ObjectInputStream in = new ObjectInputStream(socket.getInputStream());
      State state = (State) in.readObject();
      System.out.println("Playing as " + (white ? "White" : "Black") + " on port " + port);
      if (!white) state = (State) in.readObject();
      for (int ply = 0;; ++ply) {
        List<String[]> legal = moves(state, us, them);
        if (legal.isEmpty()) break;
        String[] m = legal.get(random.nextInt(legal.size()));
        kept.add(new byte[256 * 1024]);
        if (thinkMs > 0) Thread.sleep(thinkMs);
        out.writeObject(action(state, m));
        out.flush();
        System.out.println(ply + ": " + (m[0] == null ? "" : m[0]) + m[1]
            + (m[2] == null ? "" : m[2]));
        in.readObject();  // the effect of our move
        state = (State) in.readObject();  // after the opponent's
      }
    } catch (EOFException | java.net.SocketException end) {
      // The server closes both connections when the game ends.
    }
    Runtime rt = Runtime.getRuntime();
    System.out.println("Game over; heap used " + (rt.totalMemory() - rt.freeMemory()) / 1048576
        + " MB of max " + rt.maxMemory() / 1048576 + " MB, " + kept.size() + " moves");
  }
}
