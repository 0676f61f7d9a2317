// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "estimate.h"

#define MIB (1ULL << 20)

/*
 * Measured with test/bench/crashkernel.sh (QEMU, this project's 6.1
 * kernel: init_size 38.5 MiB; capture initramfs 2.0 MiB, 4.5 MiB unpacked;
 * makedumpfile -l -d 31): the capture completes at crashkernel=64M and runs
 * out of memory at 56M, for 1 GiB and 4 GiB guests alike.  So beyond the
 * kernel and the initramfs the capture needs between 11 and 19 MiB (the
 * capture kernel's own allocations and makedumpfile's cyclic buffers), and
 * RAM adds little: 14 MiB and 256 KiB per GiB put the estimate for both
 * guests inside the measured bracket (59-60 MiB).
 *
 * Debian's stock kernel (6.1.0-57-amd64, the same test, its capture
 * initramfs 6.7 MiB, 18.8 MiB unpacked): init_size 63.6 MiB, and the
 * target's drivers and filesystem are modules (2.7 MiB of files for
 * virtio_pci, virtio_blk and ext4 with what they need), which the kernel
 * holds again once loaded.  The capture completes at 112M and runs out of
 * memory at 104M, for 1 GiB and 4 GiB guests alike; counting the loaded
 * modules puts the estimate (106.0 and 106.8 MiB) inside that bracket
 * with the same run-time cost.
 */
#define RUNTIME_BYTES (ESTIMATE_RUNTIME_MIB * MIB)
/*
 * A network target (test/bench/net-crashkernel.sh, this project's kernel,
 * 1 GiB clients, one of each kind crashing at once into one collector):
 * the NFSv4 capture completes at 64M and not at 56M, the NFSv3 one at 72M
 * and not at 64M, the SSH one at 80M and not at 72M.  The NFS captures'
 * initramfs is the local one's size (2.0 MiB: the NFS client is in the
 * kernel), so the estimate alone (59.5 MiB) falls below NFSv3's need; the
 * SSH capture's initramfs is 5.1 MiB (ssh and its libraries), about 12
 * MiB unpacked at the local one's ratio, which puts the estimate near
 * 70 MiB, just below its bracket.  So every network target gets 4 MiB
 * (the NIC's receive rings, sockets) and NFS 4 MiB more (sunrpc and the
 * NFS client's buffers): NFSv3 65.5 MiB in its 64-72 bracket, SSH about
 * 74 in its 72-80 one, NFSv4 above its own (the two versions share one
 * figure).
 */
#define NET_BYTES (4 * MIB)
#define NFS_EXTRA_BYTES (4 * MIB)
/*
 * An md array (test/bench/layout-crashkernel.sh, RAID1 over two disks,
 * 1 GiB guests): on this project's kernel the capture (its initramfs 2.0
 * to 2.4 MiB with mdadm) runs out of memory at 64M, where a plain disk's
 * completes, and completes at 72M, the estimate without this being 60.6
 * MiB; on the stock kernel it runs out at 88M and completes at 96M, as a
 * plain disk's does, the estimate 92.7 MiB.  So each array counts 4 MiB
 * (mdadm while it runs, md's own pools and thread): 64.6 MiB in the
 * 64-72 bracket, 96.7 MiB just above the 88-96 one.  RAID 4, 5 and 6 add
 * their stripe cache, 256 stripes of a page per member (raid5.c,
 * NR_STRIPES).
 */
#define MD_ARRAY_BYTES (4 * MIB)
#define MD_STRIPES 256ULL
/*
 * A LUKS device (test/bench/layout-crashkernel.sh, 1 GiB guests), the
 * capture initramfs grown by cryptsetup and its libraries (libcrypto the
 * largest), which the estimate counts already, packed and unpacked:
 * luks-keyfile on the stock kernel (6.0 MiB image) runs out of memory at
 * 96M, where a plain disk's completes, and completes at 104M, the
 * estimate without this 102.5 MiB; luks2-handoff on this project's
 * kernel (5.2 MiB image) runs out at 72M (a plain disk's completes at
 * 64M) and completes at 80M, the estimate without this 70.2 MiB.  So
 * each device counts 3 MiB (cryptsetup locks its mappings in memory
 * while it runs; dm-crypt's pools and workqueues): 73.2 MiB in the 72-80
 * bracket, 105.5 just above the 96-104 one; and its key slot's Argon2.
 */
#define LUKS_DEVICE_BYTES (3 * MIB)
/*
 * A multipath device: dm-multipath's request pools and its workqueues
 * (kmpathd, kmpath_handlerd); the capture makes the map itself, and the
 * SCSI modules of its paths are counted with the modules.
 */
#define MPATH_DEVICE_BYTES (2 * MIB)
/*
 * An iSCSI session: the NIC brought up to its portal (its rings and
 * sockets, NET_BYTES as for a network target) and the session itself
 * (iscsistart while it logs in, libiscsi's task pools and the TCP
 * connection's buffers); the NIC's and iscsi_tcp's modules are counted
 * with the modules, iscsistart with the initramfs.
 */
#define ISCSI_SESSION_BYTES (NET_BYTES + 2 * MIB)
/* Per GiB of the crashed system's RAM (makedumpfile's bitmaps, page tables). */
#define PER_GIB_BYTES (ESTIMATE_PER_GIB_KIB * 1024ULL)
/* Headroom above the estimate for the recommendation, in percent. */
#define MARGIN_PERCENT 25

#ifndef ESTIMATE_RUNTIME_MIB
#define ESTIMATE_RUNTIME_MIB 14
#endif
#ifndef ESTIMATE_PER_GIB_KIB
#define ESTIMATE_PER_GIB_KIB 256
#endif

/* The boot protocol's init_size (Documentation/x86/boot.rst, 2.10+). */
#define BOOT_HDR_INIT_SIZE_OFF 0x260

static unsigned int le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;
}

unsigned long long estimate_md_bytes(const char *level,
				     unsigned int raid_disks)
{
	unsigned long long b = MD_ARRAY_BYTES;

	if (strcmp(level, "raid4") == 0 || strcmp(level, "raid5") == 0 ||
	    strcmp(level, "raid6") == 0)
		b += MD_STRIPES * 4096 * raid_disks;
	return b;
}

unsigned long long estimate_luks_bytes(unsigned int kdf_memory_kb)
{
	return LUKS_DEVICE_BYTES + kdf_memory_kb * 1024ULL;
}

unsigned long long estimate_mpath_bytes(void)
{
	return MPATH_DEVICE_BYTES;
}

unsigned long long estimate_iscsi_bytes(void)
{
	return ISCSI_SESSION_BYTES;
}

int estimate_capture(int kernel_fd, int initramfs_fd,
		     unsigned long long ram_bytes,
		     unsigned long long modules_bytes,
		     unsigned long long storage_bytes, enum conf_net net,
		     struct estimate *ret)
{
	unsigned char b[4];
	struct stat st;
	struct estimate e;

	memset(&e, 0, sizeof(e));
	if (pread(kernel_fd, b, 4, BOOT_HDR_INIT_SIZE_OFF) != 4)
		return -ENOEXEC;
	e.kernel = le32(b);
	if (fstat(kernel_fd, &st) < 0)
		return -errno;
	/* The compressed image is read in before it decompresses in place. */
	if (e.kernel < (unsigned long long)st.st_size)
		e.kernel = st.st_size;

	if (initramfs_fd >= 0) {
		unsigned char magic[2];

		if (fstat(initramfs_fd, &st) < 0)
			return -errno;
		e.initramfs = st.st_size;
		/* gzip keeps the unpacked size (mod 2^32) in its last 4 bytes. */
		if (pread(initramfs_fd, magic, 2, 0) == 2 && magic[0] == 0x1f &&
		    magic[1] == 0x8b && st.st_size > 8 &&
		    pread(initramfs_fd, b, 4, st.st_size - 4) == 4)
			e.initramfs_unpacked = le32(b);
		if (e.initramfs_unpacked < e.initramfs)
			e.initramfs_unpacked = e.initramfs * 3;
	}
	e.modules = modules_bytes;
	e.storage = storage_bytes;
	e.runtime = RUNTIME_BYTES;
	if (net != CONF_NET_NONE)
		e.network = NET_BYTES + (net == CONF_NET_NFS ? NFS_EXTRA_BYTES : 0);
	e.ram = ram_bytes;
	e.ram_share = (ram_bytes >> 30) * PER_GIB_BYTES +
		      ((ram_bytes & ((1ULL << 30) - 1)) ? PER_GIB_BYTES : 0);
	e.needed = e.kernel + e.initramfs + e.initramfs_unpacked + e.modules +
		   e.storage + e.runtime + e.network + e.ram_share;
	e.recommended = e.needed + e.needed * MARGIN_PERCENT / 100;
	/* Reservations are made in whole MiB; round up to 8 MiB steps. */
	e.recommended = (e.recommended + 8 * MIB - 1) / (8 * MIB) * (8 * MIB);
	*ret = e;
	return 0;
}

/*
 * The dump's size and time, measured by make bench (test/bench/run.sh:
 * run it again to regenerate them, and change them here): QEMU guests
 * under TCG, this project's 6.1 kernel, makedumpfile 1.7.2, -d 31 (kernel
 * data alone: 24847 pages of 4 KiB, 97.1 MiB, on a 1 GiB guest).  TCG emulates the
 * CPU, so a real machine compresses several times faster: the times are
 * an upper bound there, the sizes hold.
 *
 * Bytes written per byte of kept page: LZO 26.15 MiB of 97.1 (0.27),
 * zlib 20.41 MiB (0.21), none 1.
 */
#define RATIO_LZO 0.27
#define RATIO_ZLIB 0.21
/*
 * Seconds: a scan of every page (its flags, to decide) and a cost per
 * kept page (read, compress, write), fitted by least squares to LZO's
 * times by guest RAM: 1 GiB 1.09 s, 2 GiB 1.38, 4 GiB 2.24, 8 GiB 3.19
 * (the fit gives 1.13, 1.46, 2.04, 3.26).  zlib compresses about 6 times
 * slower per kept page; without compression the write of 4 times the bytes
 * is taken to cost what LZO's compression does.
 */
#define SCAN_SECONDS_PER_PAGE 0.57e-6
#define KEPT_SECONDS_PER_PAGE_LZO 40.8e-6
#define KEPT_SECONDS_PER_PAGE_ZLIB (6 * KEPT_SECONDS_PER_PAGE_LZO)
#define KEPT_SECONDS_PER_PAGE_NONE KEPT_SECONDS_PER_PAGE_LZO
/* Pages of the bench's size: the per-page figures scale by page size. */
#define BENCH_PAGE_SIZE 4096.0

/* A size in bytes from a double, no conversion past 2^63 (undefined). */
static unsigned long long bytes_of(double b)
{
	return b >= 9.2e18 ? 9200000000000000000ULL : (unsigned long long)b;
}

int estimate_dump(unsigned long long kept_pages,
		  unsigned long long total_pages, unsigned long long page_size,
		  unsigned int dump_level, enum conf_compression c,
		  const struct dump_measured *prev, struct dump_estimate *ret)
{
	double kept_bytes, ratio, per_kept, scale;
	struct dump_estimate d = { 0 };

	if (total_pages == 0 || page_size == 0 || kept_pages > total_pages)
		return -EINVAL;
	d.kept_pages = kept_pages;
	d.total_pages = total_pages;
	d.page_size = page_size;
	kept_bytes = (double)kept_pages * page_size;
	scale = page_size / BENCH_PAGE_SIZE;
	switch (c) {
	case COMPRESS_ZLIB:
		ratio = RATIO_ZLIB;
		per_kept = KEPT_SECONDS_PER_PAGE_ZLIB;
		break;
	case COMPRESS_NONE:
		ratio = 1.0;
		per_kept = KEPT_SECONDS_PER_PAGE_NONE;
		break;
	default:
		ratio = RATIO_LZO;
		per_kept = KEPT_SECONDS_PER_PAGE_LZO;
		break;
	}
	d.bytes = bytes_of(kept_bytes * ratio);
	d.seconds = total_pages * SCAN_SECONDS_PER_PAGE +
		    kept_pages * per_kept * scale;
	/*
	 * A dump of this machine at the same level and compression knows its
	 * own pages' ratio and its own disk's speed better than the bench:
	 * its bytes per page kept now (the kept pages then are not recorded,
	 * and change little at one dump level), and its bytes per second.
	 */
	if (prev && prev->dump_level == dump_level &&
	    prev->compression == c && prev->bytes > 0 && prev->seconds > 0 &&
	    kept_bytes > 0) {
		double r = prev->bytes / kept_bytes;

		/* A ratio no compressor gives: not a dump of this memory. */
		if (r >= 0.01 && r <= 1.1) {
			d.bytes = bytes_of(kept_bytes * r);
			d.seconds = d.bytes / (prev->bytes / prev->seconds);
			d.measured = true;
		}
	}
	*ret = d;
	return 0;
}

unsigned int estimate_capture_timeout(unsigned int target_timeout,
				      unsigned long long ram_bytes, bool zlib)
{
	unsigned long long gib = (ram_bytes + (1ULL << 30) - 1) >> 30;
	unsigned long long t = target_timeout + 120ULL + gib * (zlib ? 60 : 30);

	return t > 86400 ? 86400 : (unsigned int)t;
}

/* More than any capture needs: a need not known. */
#define THREADS_NEED_MAX (1ULL << 50)

unsigned long long estimate_threads_need(const struct estimate *e)
{
	return e->needed + e->needed * MARGIN_PERCENT / 100;
}

void estimate_threads(unsigned int requested, unsigned int cpus,
		      unsigned int nr_cpus, unsigned long long reserved,
		      unsigned long long need, struct threads_choice *ret)
{
	struct threads_choice t = {
		.requested = requested,
		.cpus = cpus ? cpus : 1,
		.nr_cpus = nr_cpus,
		.reserved = reserved,
		.need = need,
	};
	unsigned long long room = 0;

	if (reserved > need)
		room = (reserved - need) / THREADS_EXTRA_BYTES;
	t.room = room > CONF_THREADS_MAX ? CONF_THREADS_MAX : (unsigned int)room;
	if (requested == CONF_THREADS_AUTO) {
		/* makedumpfile takes no more than CONF_THREADS_MAX. */
		t.threads = t.cpus > CONF_THREADS_MAX ? CONF_THREADS_MAX :
							t.cpus;
		t.limit = THREADS_BY_CPUS;
	} else {
		t.threads = requested;
		t.limit = THREADS_BY_REQUEST;
		/* Not for a need not known (~0: the estimate failed). */
		if (need <= THREADS_NEED_MAX) {
			t.reserve_for_request = need + (requested - 1) *
							THREADS_EXTRA_BYTES;
			/* In 8 MiB steps, as estimate's recommendation. */
			t.reserve_for_request =
				(t.reserve_for_request + 8 * MIB - 1) /
				(8 * MIB) * (8 * MIB);
		}
		if (t.cpus < t.threads) {
			t.threads = t.cpus;
			t.limit = THREADS_BY_CPUS;
		}
	}
	if (nr_cpus && nr_cpus < t.threads) {
		t.threads = nr_cpus;
		t.limit = THREADS_BY_NR_CPUS;
	}
	if (t.room + 1 < t.threads) {
		t.threads = t.room + 1;
		t.limit = THREADS_BY_MEMORY;
	}
	*ret = t;
}

int estimate_threads_text(const struct threads_choice *t, char *buf,
			  size_t size)
{
	char asked[32], mem[96];
	int n;

	if (t->requested == CONF_THREADS_AUTO)
		snprintf(asked, sizeof(asked), "auto");
	else
		snprintf(asked, sizeof(asked), "%u asked for", t->requested);
	if (t->reserved)
		snprintf(mem, sizeof(mem),
			 "the %lluM reservation leaves room for %u more",
			 t->reserved >> 20, t->room);
	else
		snprintf(mem, sizeof(mem),
			 "no reservation leaves room for more");
	switch (t->limit) {
	case THREADS_BY_CPUS:
		n = snprintf(buf, size, "%u (%s: %u CPU%s online; %s)",
			     t->threads, asked, t->cpus,
			     t->cpus == 1 ? "" : "s", mem);
		break;
	case THREADS_BY_NR_CPUS:
		n = snprintf(buf, size, "%u (%s: nr_cpus=%u in cmdline_append; %s)",
			     t->threads, asked, t->nr_cpus, mem);
		break;
	case THREADS_BY_MEMORY:
		if (t->requested != CONF_THREADS_AUTO &&
		    t->requested > t->threads && t->reserve_for_request)
			n = snprintf(buf, size,
				     "%u (%s: %s; crashkernel=%lluM would allow %u)",
				     t->threads, asked, mem,
				     t->reserve_for_request >> 20,
				     t->requested);
		else
			n = snprintf(buf, size, "%u (%s: %s)", t->threads,
				     asked, mem);
		break;
	default:
		n = snprintf(buf, size, "%u (%s; %s)", t->threads, asked, mem);
		break;
	}
	return n < 0 || (size_t)n >= size ? -ENOBUFS : 0;
}

int estimate_threads_warning(const struct threads_choice *t, char *buf,
			     size_t size)
{
	int n;

	buf[0] = '\0';
	if (t->limit != THREADS_BY_MEMORY ||
	    t->requested == CONF_THREADS_AUTO || t->requested <= t->threads)
		return 0;
	if (!t->reserve_for_request)
		n = snprintf(buf, size,
			     "makedumpfile threads: %u asked for, %u used: what the capture needs of the %lluM crashkernel= reservation is not known (see 'kdump-file estimate')",
			     t->requested, t->threads, t->reserved >> 20);
	else
		n = snprintf(buf, size,
			     "makedumpfile threads: %u asked for, %u used: the %lluM crashkernel= reservation leaves room for %u more beyond the capture's %llu MiB (%d MiB each); crashkernel=%lluM would allow %u",
			     t->requested, t->threads, t->reserved >> 20,
			     t->room, (t->need + MIB - 1) >> 20,
			     THREADS_BUFFER_COST_MIB + THREADS_CPU_COST_MIB,
			     t->reserve_for_request >> 20, t->requested);
	return n < 0 || (size_t)n >= size ? -ENOBUFS : 1;
}
