// Test double of the course's moving action.
package it.unibo.ai.didattica.mulino.actions;

public class Phase2Action extends Action {
  private static final long serialVersionUID = 1L;
  private String from;
  private String to;
  private String removeOpponentChecker;

  public String getFrom() { return from; }
  public void setFrom(String p) { from = p; }
  public String getTo() { return to; }
  public void setTo(String p) { to = p; }
  public String getRemoveOpponentChecker() { return removeOpponentChecker; }
  public void setRemoveOpponentChecker(String p) { removeOpponentChecker = p; }
}
