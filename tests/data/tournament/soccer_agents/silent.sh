#!/usr/bin/env bash
# A Paper Soccer bot that never answers.
cat >/dev/null
