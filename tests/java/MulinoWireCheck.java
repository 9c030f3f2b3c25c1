// The JVM's side of arena's Java-serialization round-trip test (tests/mulino_java_test.cpp).
//   read IN        prints one line per object in the stream IN (written by arena's writer)
//   echo IN OUT    the same, and writes every object again to OUT with one ObjectOutputStream
//   write OUT      writes a scripted mix of States and Actions (with a reset) and prints them
// A line: "State PHASE whiteCheckers blackCheckers whiteOnBoard blackOnBoard BOARD" (BOARD: one of
// O W B per point, in the positions order) or "CLASS field field field" for an action.
import it.unibo.ai.didattica.mulino.actions.Action;
import it.unibo.ai.didattica.mulino.actions.Phase1Action;
import it.unibo.ai.didattica.mulino.actions.Phase2Action;
import it.unibo.ai.didattica.mulino.actions.PhaseFinalAction;
import it.unibo.ai.didattica.mulino.domain.State;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

public class MulinoWireCheck {
  static String describe(Object o) {
    if (o instanceof State) {
      State s = (State) o;
      StringBuilder board = new StringBuilder();
      for (String p : s.getPositions()) {
        State.Checker c = s.getBoard().get(p);
        board.append(c == State.Checker.WHITE ? 'W' : c == State.Checker.BLACK ? 'B' : 'O');
      }
      if (s.getBoard().size() != 24) throw new IllegalStateException("board size " + s.getBoard().size());
      return "State " + s.getCurrentPhase() + " " + s.getWhiteCheckers() + " " + s.getBlackCheckers()
          + " " + s.getWhiteCheckersOnBoard() + " " + s.getBlackCheckersOnBoard() + " " + board;
    }
    if (o instanceof Phase1Action) {
      Phase1Action a = (Phase1Action) o;
      return "Phase1Action " + a.getPutPosition() + " " + a.getRemoveOpponentChecker();
    }
    if (o instanceof Phase2Action) {
      Phase2Action a = (Phase2Action) o;
      return "Phase2Action " + a.getFrom() + " " + a.getTo() + " " + a.getRemoveOpponentChecker();
    }
    if (o instanceof PhaseFinalAction) {
      PhaseFinalAction a = (PhaseFinalAction) o;
      return "PhaseFinalAction " + a.getFrom() + " " + a.getTo() + " " + a.getRemoveOpponentChecker();
    }
    throw new IllegalStateException("unexpected " + o);
  }

  static State state(State.Phase phase, int wc, int bc, String white, String black) {
    State s = new State();
    s.setCurrentPhase(phase);
    s.setWhiteCheckers(wc);
    s.setBlackCheckers(bc);
    int wb = 0, bb = 0;
    for (String p : white.split(" ")) if (!p.isEmpty()) { s.getBoard().put(p, State.Checker.WHITE); wb++; }
    for (String p : black.split(" ")) if (!p.isEmpty()) { s.getBoard().put(p, State.Checker.BLACK); bb++; }
    s.setWhiteCheckersOnBoard(wb);
    s.setBlackCheckersOnBoard(bb);
    return s;
  }

  static Action phase1(String put, String remove) {
    Phase1Action a = new Phase1Action();
    a.setPutPosition(put);
    a.setRemoveOpponentChecker(remove);
    return a;
  }

  static Action move(boolean fly, String from, String to, String remove) {
    if (fly) {
      PhaseFinalAction a = new PhaseFinalAction();
      a.setFrom(from);
      a.setTo(to);
      a.setRemoveOpponentChecker(remove);
      return a;
    }
    Phase2Action a = new Phase2Action();
    a.setFrom(from);
    a.setTo(to);
    a.setRemoveOpponentChecker(remove);
    return a;
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("write")) {
      try (ObjectOutputStream out = new ObjectOutputStream(new FileOutputStream(args[1]))) {
        Object[] script = {
            new State(),
            phase1("a1", null),
            state(State.Phase.FIRST, 8, 9, "a1", ""),
            phase1("g1", "b2"),
            state(State.Phase.SECOND, 0, 0, "a1 d1 g1 a4 b4", "b2 d2 f2 g7"),
            move(false, "a1", "a7", null),
            move(false, "d1", "d2", "g7"),
            state(State.Phase.FINAL, 0, 0, "a1 d1 g1", "b2 d2 f2 c3 e5"),
            move(true, "a1", "e4", "c3"),
        };
        for (int i = 0; i < script.length; i++) {
          if (i == 5) out.reset();  // TC_RESET: the reader must forget every handle
          out.writeObject(script[i]);
          System.out.println(describe(script[i]));
        }
      }
      return;
    }
    if ((args.length == 2 && args[0].equals("read")) || (args.length == 3 && args[0].equals("echo"))) {
      ObjectOutputStream out = args.length == 3 ? new ObjectOutputStream(new FileOutputStream(args[2])) : null;
      try (ObjectInputStream in = new ObjectInputStream(new FileInputStream(args[1]))) {
        while (true) {
          Object o;
          try {
            o = in.readObject();
          } catch (EOFException end) {
            break;
          }
          System.out.println(describe(o));
          if (out != null) out.writeObject(o);
        }
      }
      if (out != null) out.close();
      return;
    }
    System.err.println("usage: MulinoWireCheck read IN | echo IN OUT | write OUT");
    System.exit(2);
  }
}
