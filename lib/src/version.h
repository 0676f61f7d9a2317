/* SPDX-License-Identifier: GPL-2.0 */
/* The one version of kdump-file, its loader, capture and analysis. */
#ifndef KDUMP_FILE_VERSION_H
#define KDUMP_FILE_VERSION_H

#define KDUMP_FILE_VERSION "0.3"

#endif
