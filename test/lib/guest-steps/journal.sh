# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest steps of the crash's journal entry (test/TEST-08-REPORT): after
# the boot whose report unit reported a crash, what the journal holds
# beside what kdump-file list shows.

# The MESSAGE_ID of the entry report logs once per crash (kdump-file(8)).
crash_message_id=015172fc9e57401f9f980255c3aeecad

# The KDUMP_FILE_CRASH_ID of each crash entry; journalctl options in $@.
crash_entry_ids() {
    journalctl "$@" -o verbose --no-pager "MESSAGE_ID=$crash_message_id" 2> /dev/null |
        sed -n 's/^ *KDUMP_FILE_CRASH_ID=//p'
}

# The boot after a crash: status, the dumps' IDs as list shows them (the
# newest last), this boot's crash entry in full, and the crash IDs of the
# entries of this boot and of every boot the journal kept.
step_report_journal() {
    run kdump-file status
    kdump-file list 2> /dev/null | sed 1d | while read -r id _; do
        say "list id: $id"
    done
    journalctl -b -o verbose --no-pager "MESSAGE_ID=$crash_message_id" 2> /dev/null |
        while IFS= read -r line; do say "entry: $line"; done
    say "journal crash entries this boot: $(crash_entry_ids -b | wc -l)"
    crash_entry_ids -b | while read -r id; do say "journal crash entry this boot: $id"; done
    crash_entry_ids | while read -r id; do say "journal crash entry, all boots: $id"; done
}
