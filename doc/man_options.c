// Copyright 2026 The perlin4d authors
// SPDX-License-Identifier: ISC

/*
  Checks the man page (doc/perlin4d-render.1), the one reference of the
  renderer's options, against the renderer's option table
  (src/render/options.c), read through the --help it prints:

      man_options doc/perlin4d-render.1

  - every option of the table has an entry in OPTIONS, with the same short
    name and the same need of a value;
  - every entry of OPTIONS is an option of the table;
  - every --option the page mentions anywhere, and every short -x at the
    start of a word, is an option of the table.

  Prints one line per difference and exits 1 if there is any.
*/

#define _XOPEN_SOURCE 700

#include "options.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// More options than the renderer will ever have.
#define MAX_OPTIONS 64U

/// The longest line read, far above the page's.
#define MAX_LINE 1024U

/// One option: its long name, its short name (or 0), whether it takes a
/// value.
typedef struct {
  char name[32];
  char short_name;
  bool value;
} Option;

typedef struct {
  Option   options[MAX_OPTIONS];
  unsigned n;
} Options;

static unsigned n_errors = 0U;

/// Report one difference: what it is about, then what is wrong.
static void
fail(const char* where, const char* option, const char* what)
{
  fprintf(stderr, "man_options: %s%s: %s\n", where, option, what);
  ++n_errors;
}

static Option*
find(Options* options, const char* name)
{
  for (unsigned i = 0U; i < options->n; ++i) {
    if (!strcmp(options->options[i].name, name)) {
      return &options->options[i];
    }
  }

  return NULL;
}

static Option*
find_short(Options* options, char short_name)
{
  for (unsigned i = 0U; i < options->n; ++i) {
    if (options->options[i].short_name == short_name) {
      return &options->options[i];
    }
  }

  return NULL;
}

/// Add the option named by the len characters at name.
static Option*
add(Options* options, const char* name, size_t len)
{
  if (options->n == MAX_OPTIONS || len == 0U ||
      len >= sizeof(options->options[0].name)) {
    fprintf(stderr, "man_options: cannot hold --%.*s\n", (int)len, name);
    exit(1);
  }

  Option* const option = &options->options[options->n++];
  memcpy(option->name, name, len);
  option->name[len]  = '\0';
  option->short_name = 0;
  option->value      = false;
  return option;
}

/// Return the length of the option name at s ([a-z0-9-]*).
static size_t
name_length(const char* s)
{
  size_t len = 0U;
  while (islower((unsigned char)s[len]) || isdigit((unsigned char)s[len]) ||
         s[len] == '-') {
    ++len;
  }

  return len;
}

/*
  The --help lines of options: "  -o, --output FILE    text" or
  "      --plugin noise|mod|motion  text", the value one space after the
  name, the text after at least two (or on the next line).
*/
static void
read_help(Options* table)
{
  FILE* const help = tmpfile();
  if (!help) {
    fputs("man_options: no temporary file\n", stderr);
    exit(1);
  }
  p4d_options_print_help(help);
  rewind(help);

  char line[MAX_LINE];
  while (fgets(line, (int)sizeof(line), help)) {
    const char* s          = line;
    char        short_name = 0;
    if (!strncmp(s, "  -", 3U) && s[3] != '-' && !strncmp(s + 4, ", --", 4U)) {
      short_name = s[3];
      s += 8;
    } else if (!strncmp(s, "      --", 8U)) {
      s += 8;
    } else {
      continue;
    }

    const size_t  len    = name_length(s);
    Option* const option = add(table, s, len);
    option->short_name   = short_name;
    option->value = s[len] == ' ' && s[len + 1U] != ' ' && s[len + 1U] != '\n';
  }
  if (ferror(help) || fclose(help)) {
    fputs("man_options: cannot read the help\n", stderr);
    exit(1);
  }
}

/*
  An entry's tag in OPTIONS, the line after .TP, with its font macro and
  escapes taken out: `.BI \-o " FILE" "\fR, \fP\-\-output " FILE` is
  "-o FILE , --output FILE": options, each followed by its value if it
  takes one.
*/
static void
read_tag(Options* man, const char* tag)
{
  char        plain[MAX_LINE];
  size_t      n = 0U;
  const char* s = tag;
  while (*s && *s != ' ') { // The macro: .B, .BI, .BR
    ++s;
  }
  for (; *s && *s != '\n' && n + 1U < sizeof(plain); ++s) {
    if (s[0] == '\\' && s[1] == '-') {
      plain[n++] = '-';
      ++s;
    } else if (s[0] == '\\' && s[1] == 'f' && s[2]) {
      s += 2;
    } else if (*s == '"' || *s == ',') {
      plain[n++] = ' ';
    } else {
      plain[n++] = *s;
    }
  }
  plain[n] = '\0';

  Option* option     = NULL;
  char    short_name = 0;
  for (char* word = strtok(plain, " "); word; word = strtok(NULL, " ")) {
    if (!strncmp(word, "--", 2U)) {
      option             = add(man, word + 2, strlen(word + 2));
      option->short_name = short_name;
      short_name         = 0;
    } else if (word[0] == '-' && word[1] && !word[2]) {
      short_name = word[1];
      option     = NULL;
    } else if (option) {
      option->value = true;
    }
  }
  if (short_name) {
    const char name[3] = { '-', short_name, '\0' };
    fail("", name, "an entry of OPTIONS without its long name");
  }
}

/// Read the option name at s, written with \- for each dash, into name;
/// return the length read from s.
static size_t
read_escaped_name(const char* s, char* name, size_t size)
{
  size_t i = 0U;
  size_t n = 0U;
  while (n + 1U < size) {
    if (islower((unsigned char)s[i]) || isdigit((unsigned char)s[i])) {
      name[n++] = s[i++];
    } else if (n > 0U && s[i] == '\\' && s[i + 1U] == '-' &&
               islower((unsigned char)s[i + 2U])) {
      name[n++] = '-';
      i += 2U;
    } else {
      break;
    }
  }
  name[n] = '\0';
  return i;
}

/*
  Check every --name and every -x at the start of a word that the line
  mentions against the table; after "| " an example pipes into another
  program, whose options are its own.
*/
static void
check_mentions(Options* table, const char* line, unsigned number)
{
  char where[32];
  (void)snprintf(where, sizeof(where), "line %u: ", number);

  for (const char* s = line; *s && strncmp(s, "| ", 2U); ++s) {
    char         name[64] = { '-', '-' };
    const size_t len =
      strncmp(s, "\\-\\-", 4U)
        ? 0U
        : read_escaped_name(s + 4, name + 2, sizeof(name) - 2U);
    if (len > 0U) {
      if (!find(table, name + 2)) {
        fail(where, name, "no option of the renderer");
      }
      s += 3U + len;
    } else if (!strncmp(s, "\\-", 2U) && isalpha((unsigned char)s[2]) &&
               !isalnum((unsigned char)s[3]) && s[3] != '\\' &&
               (s == line || s[-1] == ' ' || s[-1] == '"' || s[-1] == '(')) {
      const char short_name[3] = { '-', s[2], '\0' };
      if (!find_short(table, s[2])) {
        fail(where, short_name, "no option of the renderer");
      }
    }
  }
}

static void
read_man(Options* table, Options* man, const char* path)
{
  FILE* const page = fopen(path, "r");
  if (!page) {
    fprintf(stderr, "man_options: %s: cannot open\n", path);
    exit(1);
  }

  char     line[MAX_LINE];
  bool     in_options = false;
  bool     tag_next   = false;
  unsigned number     = 0U;
  while (fgets(line, (int)sizeof(line), page)) {
    ++number;
    check_mentions(table, line, number);
    if (!strncmp(line, ".SH ", 4U)) {
      in_options = !strncmp(line, ".SH OPTIONS", 11U);
    } else if (in_options && tag_next) {
      read_tag(man, line);
    }
    tag_next = in_options && !strncmp(line, ".TP", 3U);
  }
  if (ferror(page) || fclose(page)) {
    fprintf(stderr, "man_options: %s: cannot read\n", path);
    exit(1);
  }
}

int
main(int argc, char** argv)
{
  if (argc != 2) {
    fputs("Usage: man_options PAGE\n", stderr);
    return 2;
  }

  static Options table;
  static Options man;
  read_help(&table);
  read_man(&table, &man, argv[1]);
  if (table.n < 2U || man.n < 2U) {
    fputs("man_options: found no options to compare\n", stderr);
    return 1;
  }

  for (unsigned i = 0U; i < table.n; ++i) {
    const Option* const want = &table.options[i];
    const Option* const have = find(&man, want->name);
    if (!have) {
      fail("--", want->name, "not in the man page's OPTIONS");
    } else if (have->short_name != want->short_name) {
      fail("--", want->name, "the man page gives another short name");
    } else if (have->value != want->value) {
      fail("--",
           want->name,
           want->value ? "the man page gives it no value"
                       : "the man page gives it a value");
    }
  }
  for (unsigned i = 0U; i < man.n; ++i) {
    if (!find(&table, man.options[i].name)) {
      fail("--",
           man.options[i].name,
           "in the man page's OPTIONS, but no option of the renderer");
    }
  }

  if (n_errors) {
    fprintf(stderr,
            "man_options: %s differs from the option table "
            "(src/render/options.c)\n",
            argv[1]);
    return 1;
  }

  printf("man_options: %u options, the same in %s and the option table\n",
         table.n,
         argv[1]);
  return 0;
}
