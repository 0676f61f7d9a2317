// SPDX-License-Identifier: GPL-2.0
/*
 * How the capture unlocks each LUKS device the dump target is on, decided
 * at load time with libcryptsetup, or refused here with the reason and
 * what to do.  Two ways, in this order:
 *
 *  - the kernel hands the volume key over (a kernel with
 *    /sys/kernel/crash_dm_crypt_device, the capture kernel being the
 *    same release): kdump-file names the device there before
 *    kexec_file_load(2); the kernel copies the key from dm-crypt into the
 *    crash kernel's reserved memory, and the capture reads it once.  No
 *    passphrase, no key file, no key derivation.  One device only.
 *  - crypttab's key file, when it lies on an unencrypted filesystem: the
 *    capture mounts that filesystem read-only and reads the key file in
 *    place, as the boot did.  No copy of it is made, in the initramfs or
 *    anywhere else.  The slot it opens is found now (one key derivation,
 *    as at boot); the capture tries that slot alone, and only when its
 *    key derivation fits the capture's memory.
 *
 * A passphrase, a key script, a TPM2, FIDO2 or PKCS#11 token, a detached
 * header, or a key file on an encrypted filesystem: refused.
 */
#include <errno.h>
#include <libcryptsetup.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "crypttab.h"
#include "devchain.h"
#include "modload.h"
#include "plan.h"
#include "plan-internal.h"
#include "target-mount.h"
#include "util.h"

/* Where this kernel takes the device whose key the crash kernel gets. */
#define CRASH_DM_CRYPT_DEVICE "/sys/kernel/crash_dm_crypt_device"
#define CRYPTTAB "/etc/crypttab"
/*
 * The most memory a key slot's Argon2 may need in the capture: a
 * crashkernel= reservation of a few hundred MiB holds the kernel, the
 * initramfs and makedumpfile besides.
 */
#define KDF_MEMORY_MAX_KB (64U * 1024U)

static void free_cd(struct crypt_device **cd)
{
	if (*cd)
		crypt_free(*cd);
}

/* The kernel's name of a cipher: "xts(aes)" for aes, xts-plain64. */
static void kernel_cipher(const char *cipher, const char *mode, char *buf,
			  size_t size)
{
	size_t n = strcspn(mode, "-");

	if (n == 0 || strcmp(mode, "ecb") == 0)
		snprintf(buf, size, "%s", cipher);
	else
		snprintf(buf, size, "%.*s(%s)", (int)n, mode, cipher);
}

/*
 * The modules that give the running kernel the cipher (its /proc/crypto
 * entries named for it or for its block cipher, those not built in), for
 * the capture's dm-crypt: the same machine, the same implementations.
 */
static int add_cipher_modules(struct plan *p, struct modload *km,
			      struct devchain *c, const char *proc_crypto,
			      const char *cipher, const char *mode,
			      const char *dmname)
{
	_cleanup_free_ char *text = NULL;
	char kname[128], name[128] = "", module[64] = "", reason[192];
	const char *s;
	int r;

	kernel_cipher(cipher, mode, kname, sizeof(kname));
	r = read_file_max(proc_crypto, &text, 1 << 20);
	if (r < 0) {
		diag_warn(&p->diag, "cannot read %s for the modules of cipher %s: %s",
			  proc_crypto, kname, strerror(-r));
		return 0;
	}
	/* Entries of "key : value" lines, a blank line between them. */
	for (s = text;; ) {
		size_t len = strcspn(s, "\n");
		char key[32], val[128];

		if (len == 0 || !*s) {
			if ((strcmp(name, kname) == 0 || strcmp(name, cipher) == 0) &&
			    module[0] && strcmp(module, "kernel") != 0) {
				snprintf(reason, sizeof(reason),
					 "cipher %s, for LUKS device %s", name,
					 dmname);
				r = devchain_add_module(c, "/sys", km, module,
							reason);
				if (r < 0)
					return r;
			}
			name[0] = module[0] = '\0';
			if (!*s)
				break;
		} else if (sscanf(s, "%31[^ \t:] : %127[^\n]", key, val) == 2) {
			if (strcmp(key, "name") == 0 &&
			    path_format(name, sizeof(name), "%s", val) < 0)
				name[0] = '\0';
			else if (strcmp(key, "module") == 0 &&
				 path_format(module, sizeof(module), "%s", val) < 0)
				module[0] = '\0';
		}
		s += len + (s[len] == '\n');
	}
	return 0;
}

/* The capture kernel is this one, and this one hands keys over. */
static bool kernel_hands_key(const struct plan *p)
{
	struct utsname u;

	return access(CRASH_DM_CRYPT_DEVICE, W_OK) == 0 && uname(&u) == 0 &&
	       strcmp(u.release, p->release) == 0;
}

/* What makes a crypttab entry unusable for the capture, "" if nothing. */
static const char *entry_refusal(const struct crypttab_entry *e)
{
	static const char *const said[][2] = {
		{ "keyscript", "a key script" },
		{ "tpm2-device", "a TPM2 chip" },
		{ "fido2-device", "a FIDO2 key" },
		{ "pkcs11-uri", "a PKCS#11 token" },
		{ "header", "a header kept apart" },
		{ "plain", "plain dm-crypt (no LUKS header)" },
	};

	for (size_t i = 0; e->refused[0] && i < sizeof(said) / sizeof(said[0]); i++)
		if (strcmp(e->refused, said[i][0]) == 0)
			return said[i][1];
	if (e->refused[0])
		return e->refused;
	if (!e->key[0])
		return "passphrase";
	if (strncmp(e->key, "/dev/", 5) == 0 || e->key[0] != '/')
		return "a key read from a device";
	return "";
}

/* A key slot's derivation the capture can afford. */
static bool kdf_fits(const struct crypt_pbkdf_type *k)
{
	return !k->type || strcmp(k->type, CRYPT_KDF_PBKDF2) == 0 ||
	       k->max_memory_kb <= KDF_MEMORY_MAX_KB;
}

/*
 * The slot the key file e opens, its derivation in ret: the slots the
 * capture can afford first, each alone (a passphrase slot's Argon2 is
 * not paid for a key file that opens a cheap one), then the others, to
 * name the slot in the refusal.  -ENOENT when none opens.
 */
static int find_slot(struct crypt_device *cd, const struct crypttab_entry *e,
		     struct crypt_pbkdf_type *ret)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int s = 0; s < crypt_keyslot_max(CRYPT_LUKS2); s++) {
			struct crypt_pbkdf_type k = { 0 };
			crypt_keyslot_info ki = crypt_keyslot_status(cd, s);
			int r;

			if (ki != CRYPT_SLOT_ACTIVE && ki != CRYPT_SLOT_ACTIVE_LAST)
				continue;
			if (e->key_slot >= 0 && s != e->key_slot)
				continue;
			if (crypt_keyslot_get_pbkdf(cd, s, &k) < 0 ||
			    kdf_fits(&k) != (pass == 0))
				continue;
			r = crypt_activate_by_keyfile_device_offset(cd, NULL, s, e->key,
								    e->keyfile_size,
								    e->keyfile_offset, 0);
			if (r >= 0) {
				*ret = k;
				return r;
			}
			if (r != -EPERM)
				return r;
		}
	}
	return -ENOENT;
}

/*
 * crypttab's key file for cr: on an unencrypted filesystem (its drivers
 * merged into c), opening a slot whose key derivation fits the capture.
 */
static int key_file(struct plan *p, struct modload *km, struct devchain *c,
		    struct crypt_device *cd, struct devchain_crypt *cr,
		    const char *what)
{
	_cleanup_free_ struct devchain *kc = NULL;
	_cleanup_free_ char *tab = NULL;
	struct crypttab_entry e;
	struct crypt_pbkdf_type pbkdf;
	struct target_fs fs;
	const char *why;
	struct stat st;
	int r, slot;

	r = read_file_max(CRYPTTAB, &tab, 1 << 20);
	if (r == -ENOENT)
		tab = strdup("");
	else if (r < 0)
		return diag_fail(&p->diag, r, "cannot read %s for LUKS device %s: %s",
				 CRYPTTAB, cr->name, strerror(-r));
	if (!tab)
		return -ENOMEM;
	r = crypttab_find(tab, cr->name, cr->uuid, &e);
	if (r == -ENOENT)
		return diag_fail(&p->diag, -EMEDIUMTYPE,
				 "cannot use dump target %s for the capture: it is on dm-crypt (LUKS) device %s (%s), which %s does not list, and this kernel does not hand volume keys over: the capture unlocks a device with the key file %s names for it on an unencrypted filesystem; or set 'path' or 'target' in %s to a filesystem on an unencrypted disk",
				 what, cr->name, cr->kname, CRYPTTAB, CRYPTTAB,
				 p->config);
	if (r < 0)
		return diag_fail(&p->diag, r, "%s:%u: cannot read the options of %s (a number that is not one)",
				 CRYPTTAB, e.line, e.name);
	why = entry_refusal(&e);
	if (strcmp(why, "passphrase") == 0)
		return diag_fail(&p->diag, -EMEDIUMTYPE,
				 "cannot use dump target %s for the capture: it is on dm-crypt (LUKS) device %s (%s), which %s:%u unlocks with a passphrase, and nobody is there to type it after a crash (and this kernel does not hand volume keys over): set 'path' or 'target' in %s to a filesystem on an unencrypted disk, or use a network target",
				 what, cr->name, cr->kname, CRYPTTAB, e.line,
				 p->config);
	if (why[0])
		return diag_fail(&p->diag, -EMEDIUMTYPE,
				 "cannot use dump target %s for the capture: it is on dm-crypt (LUKS) device %s (%s), which %s:%u unlocks with %s, which the capture cannot use: set 'path' or 'target' in %s to a filesystem on an unencrypted disk, or use a network target",
				 what, cr->name, cr->kname, CRYPTTAB, e.line, why,
				 p->config);
	if (stat(e.key, &st) < 0 || !S_ISREG(st.st_mode))
		return diag_fail(&p->diag, -ENOENT,
				 "cannot use key file %s of LUKS device %s (%s:%u): it is not a regular file",
				 e.key, cr->name, CRYPTTAB, e.line);
	r = target_resolve_path(e.key, &fs);
	if (r < 0)
		return diag_fail(&p->diag, r, "cannot find the filesystem of key file %s (LUKS device %s): %s",
				 e.key, cr->name, strerror(-r));
	kc = calloc(1, sizeof(*kc));
	if (!kc)
		return -ENOMEM;
	r = devchain_resolve("/sys", fs.devno, fs.fstype, km, kc);
	if (r == 0 && kc->n_crypts)
		return diag_fail(&p->diag, -EMEDIUMTYPE,
				 "cannot use dump target %s for the capture: it is on dm-crypt (LUKS) device %s (%s), whose key file %s (%s:%u) is on encrypted device %s, which the capture cannot unlock first: keep the key file on an unencrypted filesystem, or set 'path' or 'target' in %s to a filesystem on an unencrypted disk",
				 what, cr->name, cr->kname, e.key, CRYPTTAB,
				 e.line, kc->crypts[0].name, p->config);
	if (r == -EMEDIUMTYPE || r == -ENOPKG)
		return diag_fail(&p->diag, r,
				 "cannot use key file %s of LUKS device %s for the capture: its filesystem is on %s%s%s",
				 e.key, cr->name, kc->layer, kc->fix[0] ? ": " : "",
				 kc->fix);
	if (r < 0)
		return diag_fail(&p->diag, r, "cannot resolve the drivers of key file %s (%s): %s",
				 e.key, fs.devnode, strerror(-r));
	if (strncmp(fs.spec, "UUID=", 5) != 0 || strpbrk(fs.relpath, " \t\n") ||
	    path_format(cr->key_fs_uuid, sizeof(cr->key_fs_uuid), "%s", fs.spec + 5) < 0 ||
	    path_format(cr->key_fs_type, sizeof(cr->key_fs_type), "%s", fs.fstype) < 0 ||
	    path_format(cr->key_rel, sizeof(cr->key_rel), "%s", fs.relpath) < 0)
		return diag_fail(&p->diag, -EINVAL,
				 "cannot use key file %s of LUKS device %s for the capture: its filesystem has no UUID, or its path has blanks or is longer than %zu bytes",
				 e.key, cr->name, sizeof(cr->key_rel) - 1);
	slot = find_slot(cd, &e, &pbkdf);
	if (slot == -ENOENT)
		return diag_fail(&p->diag, -EKEYREJECTED,
				 "cannot use dump target %s for the capture: it is on dm-crypt (LUKS) device %s (%s), and its key file %s (%s:%u) opens no key slot%s: add it with 'cryptsetup luksAddKey --pbkdf pbkdf2 %s %s', or fix %s",
				 what, cr->name, cr->kname, e.key, CRYPTTAB,
				 e.line, e.key_slot < 0 ? "" : " (of the one named)",
				 crypt_get_device_name(cd), e.key, CRYPTTAB);
	if (slot < 0)
		return diag_fail(&p->diag, slot, "cannot try key file %s on LUKS device %s: %s",
				 e.key, cr->name, strerror(-slot));
	if (!kdf_fits(&pbkdf))
		return diag_fail(&p->diag, -E2BIG,
				 "cannot use dump target %s for the capture: it is on dm-crypt (LUKS) device %s (%s), whose key file %s opens key slot %d, which derives the key with %s over %u MiB, more than the capture's %u MiB: give that slot PBKDF2 (a key file needs no slow derivation) with 'cryptsetup luksConvertKey --key-slot %d --key-file %s --pbkdf pbkdf2 %s'",
				 what, cr->name, cr->kname, e.key, slot,
				 pbkdf.type, pbkdf.max_memory_kb / 1024,
				 KDF_MEMORY_MAX_KB / 1024, slot, e.key,
				 crypt_get_device_name(cd));
	r = devchain_merge(c, kc);
	if (r < 0)
		return diag_fail(&p->diag, r, "the capture would need more than %d modules for the dump target and key file %s",
				 DEVCHAIN_MAX, e.key);
	cr->key = DEVCHAIN_KEY_FILE;
	cr->key_slot = slot;
	cr->key_offset = e.keyfile_offset;
	cr->key_size = e.keyfile_size;
	snprintf(cr->key_file, sizeof(cr->key_file), "%s", e.key);
	snprintf(cr->pbkdf, sizeof(cr->pbkdf), "%s",
		 pbkdf.type ? pbkdf.type : CRYPT_KDF_PBKDF2);
	cr->kdf_memory_kb = kdf_fits(&pbkdf) && pbkdf.type &&
			    strcmp(pbkdf.type, CRYPT_KDF_PBKDF2) ?
			    pbkdf.max_memory_kb : 0;
	return 0;
}

/* One LUKS device of c: its header checked, its key decided. */
static int plan_one(struct plan *p, struct modload *km, struct devchain *c,
		    struct devchain_crypt *cr, bool *kernel_used,
		    const char *what)
{
	__attribute__((cleanup(free_cd))) struct crypt_device *cd = NULL;
	const char *uuid;
	char dev[48];
	int r;

	/*
	 * The header, read from the device below (as the capture will find
	 * it): no device-mapper call, which the service's sandbox forbids.
	 */
	snprintf(dev, sizeof(dev), "/dev/%s", cr->backing);
	r = crypt_init(&cd, dev);
	if (r == 0)
		r = crypt_load(cd, CRYPT_LUKS, NULL);
	if (r == -EINVAL || r == -ENOENT)
		return diag_fail(&p->diag, -EMEDIUMTYPE,
				 "cannot use dump target %s for the capture: it is on dm-crypt (LUKS) device %s (%s), whose header is not on %s (a header kept apart?): the capture finds a LUKS device by the header on it; set 'path' or 'target' in %s to a filesystem on an unencrypted disk",
				 what, cr->name, cr->kname, dev, p->config);
	if (r < 0)
		return diag_fail(&p->diag, r, "cannot read the LUKS header of %s on %s: %s",
				 cr->name, dev, strerror(-r));
	uuid = crypt_get_uuid(cd);
	if (!uuid || strcasecmp(uuid, cr->uuid) != 0)
		return diag_fail(&p->diag, -EMEDIUMTYPE,
				 "cannot use dump target %s for the capture: LUKS device %s was opened from a header of UUID %s, and %s holds UUID %s: set 'path' or 'target' in %s to a filesystem on an unencrypted disk",
				 what, cr->name, cr->uuid, dev, uuid ? uuid : "none",
				 p->config);
	r = add_cipher_modules(p, km, c, "/proc/crypto", crypt_get_cipher(cd),
			       crypt_get_cipher_mode(cd), cr->name);
	if (r == -ENOPKG)
		return diag_fail(&p->diag, r,
				 "cannot use dump target %s for the capture: kernel %s has no module %s: install that kernel's modules or set 'kernel' in %s",
				 what, p->release, c->layer, p->config);
	if (r < 0)
		return r;
	if (!*kernel_used && kernel_hands_key(p) &&
	    crypt_get_volume_key_size(cd) <= 128) {
		cr->key = DEVCHAIN_KEY_KERNEL;
		*kernel_used = true;
		return 0;
	}
	return key_file(p, km, c, cd, cr, what);
}

int plan_crypt(struct plan *p, struct modload *km, struct devchain *c,
	       const char *what)
{
	bool kernel_used = false;
	int r;

	for (unsigned int i = 0; i < c->n_crypts; i++)
		kernel_used |= c->crypts[i].key == DEVCHAIN_KEY_KERNEL;
	for (unsigned int i = 0; i < c->n_crypts; i++) {
		if (c->crypts[i].key != DEVCHAIN_KEY_NONE)
			continue;
		r = plan_one(p, km, c, &c->crypts[i], &kernel_used, what);
		if (r < 0)
			return r;
	}
	return 0;
}

int plan_crypt_select(const struct plan *p, char *ret_dev, size_t size)
{
	char dev[32] = "none";
	int r;

	for (unsigned int i = 0; p->chain_known && i < p->chain.n_crypts; i++)
		if (p->chain.crypts[i].key == DEVCHAIN_KEY_KERNEL)
			snprintf(dev, sizeof(dev), "%u:%u",
				 p->chain.crypts[i].major,
				 p->chain.crypts[i].minor);
	if (ret_dev)
		snprintf(ret_dev, size, "%s", dev);
	if (access(CRASH_DM_CRYPT_DEVICE, F_OK) < 0)
		return strcmp(dev, "none") == 0 ? 0 : -EOPNOTSUPP;
	r = write_attr(CRASH_DM_CRYPT_DEVICE, dev);
	return r;
}
