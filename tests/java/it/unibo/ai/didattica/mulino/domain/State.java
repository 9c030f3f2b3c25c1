// Test double of the course's it.unibo.ai.didattica.mulino.domain.State: the same name, fields and
// serialVersionUID, so its serialized form is the one the course's server sends.
package it.unibo.ai.didattica.mulino.domain;

import java.io.Serializable;
import java.util.HashMap;

public class State implements Serializable {
  private static final long serialVersionUID = 1L;

  public enum Checker { EMPTY, WHITE, BLACK }

  public enum Phase { FIRST, SECOND, FINAL }

  private String[] positions = {"a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2",
      "d3", "d5", "d6", "d7", "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7"};
  private HashMap<String, Checker> board = new HashMap<String, Checker>();
  private Phase currentPhase = Phase.FIRST;
  private int whiteCheckers = 9;
  private int blackCheckers = 9;
  private int whiteCheckersOnBoard = 0;
  private int blackCheckersOnBoard = 0;

  public State() {
    for (String p : positions) board.put(p, Checker.EMPTY);
  }

  public HashMap<String, Checker> getBoard() { return board; }
  public String[] getPositions() { return positions; }
  public Phase getCurrentPhase() { return currentPhase; }
  public void setCurrentPhase(Phase p) { currentPhase = p; }
  public int getWhiteCheckers() { return whiteCheckers; }
  public void setWhiteCheckers(int n) { whiteCheckers = n; }
  public int getBlackCheckers() { return blackCheckers; }
  public void setBlackCheckers(int n) { blackCheckers = n; }
  public int getWhiteCheckersOnBoard() { return whiteCheckersOnBoard; }
  public void setWhiteCheckersOnBoard(int n) { whiteCheckersOnBoard = n; }
  public int getBlackCheckersOnBoard() { return blackCheckersOnBoard; }
  public void setBlackCheckersOnBoard(int n) { blackCheckersOnBoard = n; }
}
