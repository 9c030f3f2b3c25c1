// Test double of the course's placing action.
package it.unibo.ai.didattica.mulino.actions;

public class Phase1Action extends Action {
  private static final long serialVersionUID = 1L;
  private String putPosition;
  private String removeOpponentChecker;

  public String getPutPosition() { return putPosition; }
  public void setPutPosition(String p) { putPosition = p; }
  public String getRemoveOpponentChecker() { return removeOpponentChecker; }
  public void setRemoveOpponentChecker(String p) { removeOpponentChecker = p; }
}
