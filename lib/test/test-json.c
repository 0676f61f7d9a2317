// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>

#include "json.h"
#include "tests.h"

static const char *text_of(const char *s)
{
	static char out[256];
	struct json_object *j = json_text(s);

	snprintf(out, sizeof(out), "%s", json_object_to_json_string(j));
	json_object_put(j);
	return out;
}

static void test_text(void)
{
	CHECK(strcmp(text_of("plain"), "\"plain\"") == 0);
	/* Quotes, backslashes and control characters are escaped. */
	CHECK(strcmp(text_of("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"") == 0);
	/* Valid UTF-8 stays as it is. */
	CHECK(strcmp(text_of("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xa5"),
		     "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xa5\"") == 0);
	/* Invalid: a lone continuation byte, a cut sequence, an overlong
	 * form, a surrogate, beyond U+10FFFF, 0xff: each byte U+FFFD. */
	CHECK(strcmp(text_of("a\x80" "b"), "\"a\xef\xbf\xbd" "b\"") == 0);
	CHECK(strcmp(text_of("\xc3"), "\"\xef\xbf\xbd\"") == 0);
	CHECK(strcmp(text_of("\xc0\xaf"), "\"\xef\xbf\xbd\xef\xbf\xbd\"") == 0);
	CHECK(strcmp(text_of("\xed\xa0\x80"),
		     "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"") == 0);
	CHECK(strcmp(text_of("\xf4\x90\x80\x80"),
		     "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"") == 0);
	CHECK(strcmp(text_of("\xff"), "\"\xef\xbf\xbd\"") == 0);
	CHECK(strcmp(text_of(NULL), "\"\"") == 0);
}

static void test_write_read(void)
{
	char path[] = "/tmp/test-json.XXXXXX", buf[64], text[1024];
	struct json_object *o = json_object_new_object();
	FILE *f;
	size_t n;
	int fd;

	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK(json_set_text(o, "panic", "Kernel panic - not syncing: \"x\"\xff") == 0);
	CHECK(json_set_int(o, "crash_time", 1764859000) == 0);
	CHECK(json_set_bool(o, "complete", 0) == 0);
	CHECK(json_set_double(o, "seconds", 1.5) == 0);
	CHECK(json_set_double(o, "hook", 0.092) == 0);
	CHECK(json_write_atomic(path, o, 0600) == 0);
	json_object_put(o);
	f = fopen(path, "r");
	CHECK(f != NULL);
	n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	CHECK(n > 0 && text[n - 1] == '\n');
	CHECK(json_get_field(text, "panic", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "Kernel panic - not syncing: \"x\"\xef\xbf\xbd") == 0);
	CHECK(json_get_field(text, "crash_time", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "1764859000") == 0);
	CHECK(json_get_field(text, "complete", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "false") == 0);
	CHECK(json_get_field(text, "seconds", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "1.500") == 0);
	/* To the millisecond, not json-c's 17 digits. */
	CHECK(json_get_field(text, "hook", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "0.092") == 0);
	unlink(path);
	/* Nested keys. */
	CHECK(json_get_field("{\"task\": {\"command\": \"bash\", \"pid\": 7}}",
			     "task.command", buf, sizeof(buf)) == 0);
	CHECK(strcmp(buf, "bash") == 0);
	CHECK(json_get_field("{\"task\": {\"pid\": 7}}", "task.pid", buf,
			     sizeof(buf)) == 0);
	CHECK(strcmp(buf, "7") == 0);
	CHECK(json_get_field("{\"task\": 1}", "task.pid", buf, sizeof(buf)) == -ENOENT);
	CHECK(json_get_field("{\"task\": {}}", "task.pid", buf, sizeof(buf)) == -ENOENT);
	CHECK(json_get_field("{\"command\": \"x\"}", "task.command", buf,
			     sizeof(buf)) == -ENOENT);
}

int main(void)
{
	test_text();
	test_write_read();
	return tests_done();
}
