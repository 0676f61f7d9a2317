/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KDUMP_FILE_INITRAMFS_H
#define KDUMP_FILE_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>

#define KDUMP_FILE_STATE_DIR "/var/lib/kdump-file"
#define KDUMP_FILE_LIBEXEC_DIR "/usr/lib/kdump-file"
#define KDUMP_FILE_DRACUT_MODULE "/usr/lib/dracut/modules.d/99kdump-file"
#define KDUMP_FILE_CAPTURE_CONF_IN_INITRAMFS "/etc/kdump-file/capture.conf"

/*
 * A text that changes whenever the capture initramfs would: the capture
 * kernel's identity, the resolved capture configuration, the dracut module,
 * and the programs the capture runs.
 */
int initramfs_fingerprint(const char *kernel, const char *capture_conf,
			  char *buf, size_t size);
/* True when img exists and was built from the same fingerprint. */
bool initramfs_is_current(const char *img, const char *fingerprint);
/*
 * Build img with dracut for kernel release kver, with capture_conf_file as
 * the capture configuration, then record the fingerprint. Returns dracut's
 * non-zero exit status as -EIO; img is replaced only on success.
 */
int initramfs_build(const char *img, const char *kver,
		    const char *capture_conf_file, const char *fingerprint);

#endif
