#pragma once
// A network namespace of its own for one game: only a loopback interface, holding the game's
// listening sockets and both agents. An agent can reach its own game's server and nothing else:
// no other address (there is no route), no other game's port (each game has its own loopback).
//
// Network namespaces belong to threads: while a GameNetwork is entered, sockets the thread creates
// and processes it starts are in the game's namespace; sockets keep their namespace for life, so
// the server may then use them from any thread. Needs CAP_SYS_ADMIN (arena run as root).
#include <string>

namespace arena {

class GameNetwork {
 public:
  // Creates the namespace and moves the calling thread into it, with lo up. Throws
  // std::runtime_error with the reason.
  GameNetwork();
  // Moves the calling thread back to the namespace it was in. The game's namespace ends when
  // its last socket and process are gone.
  ~GameNetwork();
  GameNetwork(const GameNetwork&) = delete;
  GameNetwork& operator=(const GameNetwork&) = delete;

 private:
  int original_ = -1;  // the thread's namespace before
};

// Whether this process can make game networks; "" when it can, else why not.
std::string game_network_unavailable();

}  // namespace arena
