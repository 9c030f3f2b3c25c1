// arena web: no embedded data here; a report written by `arena tournament report` replaces this file (web/source.js).
