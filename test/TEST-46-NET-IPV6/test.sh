#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An ssh:// target over IPv6 alone on this project's kernel: the
# collector's name resolves to its IPv6 address.
exec "$(dirname "$0")/../lib/scenario-net-links.sh" TEST-46-NET-IPV6 46 ipv6 ours
