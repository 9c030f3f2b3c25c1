#!/usr/bin/env bash
# A Paper Soccer bot that dies of SIGSEGV on its first message.
read -r line
kill -SEGV $$
