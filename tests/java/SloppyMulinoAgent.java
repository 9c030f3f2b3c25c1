// A Bologna agent of the kind earlier years handed in: it fills Action.removeOpponentChecker even
// when its move closes no mill (the course's Engine never reads it then), and may leave it null
// when its move does close one (the Engine throws then). Otherwise it plays as RandomMulinoAgent,
// but closes a mill whenever it can, so that its games reach the flying phase quickly.
//
// java SloppyMulinoAgent White|Black, with RandomMulinoAgent's environment (ARENA_HOST,
// ARENA_WHITE_PORT, ARENA_BLACK_PORT) and:
//   ARENA_AGENT_SEED          seed of its choices (default 1 for White, 2 for Black)
//   ARENA_AGENT_OMIT_REMOVAL  "1": send its first mill with removeOpponentChecker null
import it.unibo.ai.didattica.mulino.domain.State;
import it.unibo.ai.didattica.mulino.domain.State.Checker;
import java.io.EOFException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class SloppyMulinoAgent {
  // An opponent piece to name when no mill closes: the first in the State's positions order.
  static String someOpponentPiece(State s, Checker them) {
    for (String p : s.getPositions())
      if (s.getBoard().get(p) == them) return p;
    return "a1";
  }

  public static void main(String[] args) throws Exception {
    boolean white = args.length > 0 && args[0].equalsIgnoreCase("white");
    Checker us = white ? Checker.WHITE : Checker.BLACK;
    Checker them = white ? Checker.BLACK : Checker.WHITE;
    int port = Integer.parseInt(white ? RandomMulinoAgent.env("ARENA_WHITE_PORT", "5800")
                                      : RandomMulinoAgent.env("ARENA_BLACK_PORT", "5801"));
    long seed = Long.parseLong(RandomMulinoAgent.env("ARENA_AGENT_SEED", white ? "1" : "2"));
    boolean omit = RandomMulinoAgent.env("ARENA_AGENT_OMIT_REMOVAL", "0").equals("1");
    Random random = new Random(seed);
    try (Socket socket = RandomMulinoAgent.connect(RandomMulinoAgent.env("ARENA_HOST", "localhost"),
             port)) {
      ObjectOutputStream out = new ObjectOutputStream(socket.getOutputStream());
      out.flush();
      ObjectInputStream in = new ObjectInputStream(socket.getInputStream());
      State state = (State) in.readObject();
      if (!white) state = (State) in.readObject();
      for (int ply = 0;; ++ply) {
        List<String[]> legal = RandomMulinoAgent.moves(state, us, them);
        if (legal.isEmpty()) break;
        List<String[]> mills = new ArrayList<>();
        for (String[] m : legal)
          if (m[2] != null) mills.add(m);
        List<String[]> pool = mills.isEmpty() ? legal : mills;
        String[] m = pool.get(random.nextInt(pool.size())).clone();
        if (m[2] == null) {
          m[2] = someOpponentPiece(state, them);  // named, though no mill closes
        } else if (omit) {
          m[2] = null;
          omit = false;
        }
        out.writeObject(RandomMulinoAgent.action(state, m));
        out.flush();
        System.out.println(ply + ": " + state.getCurrentPhase() + " "
            + (m[0] == null ? "" : m[0]) + m[1] + " remove " + m[2]);
        in.readObject();  // the effect of our move
        state = (State) in.readObject();  // after the opponent's
      }
    } catch (EOFException | java.net.SocketException end) {
      // The server closes both connections when the game ends.
    }
  }
}
