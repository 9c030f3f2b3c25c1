// Test double of the course's abstract action class (same name and serialVersionUID, no fields).
package it.unibo.ai.didattica.mulino.actions;

import java.io.Serializable;

public abstract class Action implements Serializable {
  private static final long serialVersionUID = 1L;
}
