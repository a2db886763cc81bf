// SPDX-License-Identifier: GPL-2.0-only
///
/// (The audit's rules, scripts/audit.sh: the report and org modes as
/// the series' semantic patch had them before it was narrowed, and an
/// audit mode that also lists every helper and setter call.)
///
/// Find syscall timeouts that are not checked with the one timeout
/// sanity definition, the timeout family of include/linux/time64.h
/// (timespec64_classify()) and include/linux/timekeeping.h: the checks
/// timespec64_check_timeout() and itimerspec64_check_timeout(), the
/// check-and-convert timespec64_to_timeout(), and the copy-ins that check
/// (get_timespec64_checked(), get_old_timespec32_checked()) or check and
/// convert (get_timespec64_timeout(), get_old_timespec32_timeout()).  The
/// two ABI exceptions are modes of the family (TIMEOUT_MODE_SUM,
/// TIMEOUT_MODE_CARRY): a call in one of them is a helper call too, its
/// mode named in the message.  Found:
///  - open-coded tests of tv_sec < 0, tv_nsec < 0 and
///    tv_nsec >= NSEC_PER_SEC (or 1000000000), on . and -> forms;
///  - direct calls of the legacy timespec64_valid() and
///    itimerspec64_valid(), which only know interval semantics;
///  - a timespec copied from user space by get_timespec64() or
///    get_old_timespec32() and converted (timespec64_to_ktime(),
///    timespec64_to_jiffies(), timespec64_to_ns(), ktime_set(), and
///    timespec64_sum_to_ktime(), the SUM mode's conversion, which checks
///    nothing) or stored in a longer-lived structure without any check in
///    the function, or passed to a function of the same file that
///    converts it without a check;
///  - a timespec that is a member of a structure copied in with
///    copy_from_user(), read field by field and converted in a function
///    that checks no timespec;
///  - a timespec read field by field with READ_ONCE() from memory that
///    user space shares with the kernel (io_uring's registered wait
///    region), in a function that checks no timespec: the kernel's copy
///    is what must be checked, and where it is made.
/// Not every hit is a timeout: the legacy helpers remain correct for
/// timespecs that are not timeouts (driver values, file timestamps).
/// timespec64_valid_strict() and timespec64_valid_settod() guard clock
/// setters, not timeouts, and are never reported.
///
// Confidence: Moderate
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Comments: Each message reads "<function>(): <kind>: <detail>", kind
//  being open-coded, legacy, unchecked or, with -D audit only, helper
//  (a consistent site) and setter (a clock setter's check).
//  A field test counts only if its branch returns or sets an errno (or
//  returns false): tests that clamp or normalise are not reported.
// Options: --no-includes --include-headers
//
// Keywords: timespec64_check_timeout, timespec64_to_timeout,
//  get_timespec64_timeout, timespec64_valid, get_timespec64
//

virtual report
virtual org
virtual audit

@initialize:python@
@@
# The helpers themselves (the family), and KUnit code that keeps the old
# rule on purpose as an oracle.
filter = frozenset(['timespec64_classify', 'timespec64_class_to_errno',
		    'timespec64_check_timeout', 'itimerspec64_check_timeout',
		    'timespec64_to_timeout', 'timespec64_sum_to_ktime',
		    'get_timespec64_timeout', 'get_old_timespec32_timeout',
		    'get_timespec64_checked', 'get_old_timespec32_checked',
		    'timespec64_valid', 'itimerspec64_valid',
		    'timespec64_valid_strict', 'timespec64_valid_settod'])

def relevant(p):
	if p[0].file.endswith('_kunit.c'):
		return False
	return not (filter & {el.current_element for el in p})

# Structures copied in with copy_from_user(), and what the functions that
# copy them do: (file, function) keys, filled by the member rules below.
copied = {}
members = set()
converts = set()
checks = set()

def fn_key(p):
	return (p[0].file, p[0].current_element)

def member_of(p):
	s = copied.get((p[0].file, p[0].line, p[0].column))
	flds = sorted(m[3] for m in members if m[:3] == fn_key(p) + (s,))
	return '%s.%s' % (s, flds[0]) if flds else None

def member_unchecked(p):
	return (relevant(p) and member_of(p) is not None
		and fn_key(p) in converts and fn_key(p) not in checks)

def emit(p, kind, detail):
	msg = '%s(): %s: %s' % (p[0].current_element, kind, detail)
	if kind in ('helper', 'setter'):
		coccilib.report.print_report(p[0], 'INFO: ' + msg)
	else:
		coccilib.report.print_report(p[0], 'WARNING: ' + msg)

def emit_org(p, kind, detail):
	msg = '%s(): %s: %s' % (p[0].current_element, kind, detail)
	coccilib.org.print_todo(p[0], msg)

// A test of a timespec field that rejects the value: the branch it
// guards returns or sets a negative errno, or returns false.  Tests that
// clamp or normalise a value are not checks and are not reported.
@neg depends on report || org || audit@
expression E;
identifier fld = {tv_sec, tv_nsec};
identifier err =~ "^E[A-Z0-9]+$";
position p : script:python() { relevant(p) };
type T;
statement S;
symbol false;
@@

(
if (<+... \(E.fld@p\|E->fld@p\|(T)E.fld@p\|(T)E->fld@p\) < 0 ...+>)
{ <+... \(-err\|false\) ...+> } else S
|
if (<+... \(E.fld@p\|E->fld@p\|(T)E.fld@p\|(T)E->fld@p\) < 0 ...+>)
{ <+... \(-err\|false\) ...+> }
)

@big depends on report || org || audit@
expression E;
identifier err =~ "^E[A-Z0-9]+$";
position p : script:python() { relevant(p) };
type T;
statement S;
symbol false;
@@

(
if (<+... \(E.tv_nsec@p\|E->tv_nsec@p\|(T)E.tv_nsec@p\|(T)E->tv_nsec@p\)
	  >= \(NSEC_PER_SEC\|1000000000\|1000000000L\|1000000000UL\) ...+>)
{ <+... \(-err\|false\) ...+> } else S
|
if (<+... \(E.tv_nsec@p\|E->tv_nsec@p\|(T)E.tv_nsec@p\|(T)E->tv_nsec@p\)
	  >= \(NSEC_PER_SEC\|1000000000\|1000000000L\|1000000000UL\) ...+>)
{ <+... \(-err\|false\) ...+> }
|
if (<+... \(E.tv_nsec@p\|E->tv_nsec@p\) > 999999999 ...+>)
{ <+... \(-err\|false\) ...+> } else S
|
if (<+... \(E.tv_nsec@p\|E->tv_nsec@p\) > 999999999 ...+>)
{ <+... \(-err\|false\) ...+> }
)

@legacy depends on report || org || audit@
identifier f = {timespec64_valid, itimerspec64_valid};
position p : script:python() { relevant(p) };
@@

f@p(...)

@setter depends on audit@
identifier f = {timespec64_valid_strict, timespec64_valid_settod};
position p : script:python() { relevant(p) };
@@

f@p(...)

// A conversion in one of the ABI modes: a helper call, its mode named.
@abimode depends on audit@
identifier f = {timespec64_to_timeout, get_timespec64_timeout,
		get_old_timespec32_timeout};
identifier m = {TIMEOUT_MODE_SUM, TIMEOUT_MODE_CARRY};
expression K, T;
position ap : script:python() { relevant(ap) };
@@

f@ap(K, T, m)

@helper depends on audit@
identifier f = {timespec64_check_timeout, itimerspec64_check_timeout,
		timespec64_classify, timespec64_to_timeout, get_timespec64_timeout,
		get_old_timespec32_timeout, get_timespec64_checked,
		get_old_timespec32_checked};
position p : script:python() { relevant(p) };
position p1 != abimode.ap;
@@

f@p@p1(...)

// A user timespec that is checked somewhere after the copy.
@chk exists@
identifier rd = {get_timespec64, get_old_timespec32};
identifier v = {timespec64_valid, timespec64_valid_strict,
		timespec64_valid_settod, timespec64_check_timeout,
		timespec64_classify};
expression T, U;
identifier fld = {tv_sec, tv_nsec};
identifier g != ktime_set;
expression E, K;
position rp;
@@

rd@rp(&T, U)
...
(
v(&T, ...)
|
timespec64_to_timeout(K, &T, ...)
|
T.fld < E
|
T.fld >= E
|
g(..., T.fld, ...)
)

// Copied, then converted in the same function, never checked.
@unconv exists@
identifier rd = {get_timespec64, get_old_timespec32};
expression T, U;
position p : script:python() { relevant(p) };
position p1 != chk.rp;
position c;
identifier cv;
@@

rd@p@p1(&T, U)
...
(
timespec64_to_ktime@cv@c(T)
|
\(timespec64_to_jiffies@cv@c\|timespec64_to_ns@cv@c\|timespec64_sum_to_ktime@cv@c\)(&T)
|
ktime_set@cv@c(T.tv_sec, T.tv_nsec)
)

// Copy-in helpers (get_itimerspec64()) fill their caller's structure:
// the caller checks.
@cpy@
identifier rd = {get_timespec64, get_old_timespec32};
identifier f, it, fld;
expression U;
type T;
position cp;
@@

f(..., T *it, ...)
{
<...
rd@cp(&it->fld, U)
...>
}

// Copied into a longer-lived structure, never checked.
@unstored@
identifier rd = {get_timespec64, get_old_timespec32};
expression E, U;
identifier fld;
position p : script:python() { relevant(p) };
position p1 != chk.rp;
position p2 != cpy.cp;
@@

(
rd@p@p1@p2(&E->fld, U)
|
rd@p@p1@p2(&E.fld, U)
)

// A function that converts a timespec64 it was handed, with no check
// before the conversion.
@cvparam exists@
identifier f, ts;
parameter list[n] ps;
type T;
position c;
identifier v = {timespec64_valid, timespec64_check_timeout,
		timespec64_classify};
identifier fld = {tv_sec, tv_nsec};
identifier cv;
expression K;
@@

f(ps, T *ts, ...)
{
... when != v(ts, ...)
    when != timespec64_to_timeout(K, ts, ...)
    when != ts->fld
(
timespec64_to_ktime@cv@c(*ts)
|
\(timespec64_to_jiffies@cv@c\|timespec64_to_ns@cv@c\|timespec64_sum_to_ktime@cv@c\)(ts)
)
... when any
}

// Copied, then handed to such a function, never checked.
@uncall exists@
identifier rd = {get_timespec64, get_old_timespec32};
identifier cvparam.f;
expression list[cvparam.n] es;
expression T, U;
position p : script:python() { relevant(p) };
position p1 != chk.rp;
@@

rd@p@p1(&T, U)
...
f(es, <+... &T ...+>, ...)

// A structure copied in with copy_from_user(): its timespec members are
// read field by field, and no get_timespec64() sees them.
@mcopy depends on report || org || audit@
expression S, U, N;
position p;
@@

(
copy_from_user@p(&S, U, N)
|
copy_from_user@p(S, U, N)
)

@script:python@
p << mcopy.p;
S << mcopy.S;
@@

copied[(p[0].file, p[0].line, p[0].column)] = S

@mread depends on report || org || audit@
expression S;
identifier fld;
identifier t = {tv_sec, tv_nsec};
position q;
@@

(
S.fld.t@q
|
S->fld.t@q
)

@script:python@
q << mread.q;
S << mread.S;
fld << mread.fld;
@@

members.add(fn_key(q) + (S, fld))

@mconv depends on report || org || audit@
identifier cv = {timespec64_to_ktime, timespec64_to_jiffies,
		 timespec64_to_ns, ktime_set, timespec64_sum_to_ktime};
position c;
@@

cv@c(...)

@script:python@
c << mconv.c;
@@

converts.add(fn_key(c))

@mcheck depends on report || org || audit@
identifier v = {timespec64_valid, timespec64_check_timeout,
		timespec64_classify, timespec64_to_timeout, get_timespec64_timeout,
		get_old_timespec32_timeout, get_timespec64_checked,
		get_old_timespec32_checked};
position c;
@@

v@c(...)

@script:python@
c << mcheck.c;
@@

checks.add(fn_key(c))

// Copied in as a member, converted, and no timespec checked.
@unmember depends on report || org || audit@
expression S, U, N;
position p : script:python() { member_unchecked(p) };
@@

(
copy_from_user@p(&S, U, N)
|
copy_from_user@p(S, U, N)
)

// A timespec read field by field from memory shared with user space,
// and no timespec checked in the function that reads it.
@shread depends on report || org || audit@
expression T, W;
position p : script:python() { relevant(p) and fn_key(p) not in checks };
@@

T.tv_sec@p = READ_ONCE(W.tv_sec)

@script:python depends on report || audit@
p << neg.p;
fld << neg.fld;
@@

emit(p, 'open-coded', '%s < 0, on a timeout use timespec64_check_timeout()' % fld)

@script:python depends on org@
p << neg.p;
fld << neg.fld;
@@

emit_org(p, 'open-coded', '%s < 0, on a timeout use timespec64_check_timeout()' % fld)

@script:python depends on report || audit@
p << big.p;
@@

emit(p, 'open-coded',
     'tv_nsec >= NSEC_PER_SEC, on a timeout use timespec64_check_timeout()')

@script:python depends on org@
p << big.p;
@@

emit_org(p, 'open-coded',
	 'tv_nsec >= NSEC_PER_SEC, on a timeout use timespec64_check_timeout()')

@script:python depends on report || audit@
p << legacy.p;
f << legacy.f;
@@

emit(p, 'legacy', '%s(), on a timeout use %s' %
     (f, f.replace('_valid', '_check_timeout') + '() or timespec64_to_timeout()'))

@script:python depends on org@
p << legacy.p;
f << legacy.f;
@@

emit_org(p, 'legacy', '%s(), on a timeout use %s' %
	 (f, f.replace('_valid', '_check_timeout') + '() or timespec64_to_timeout()'))

@script:python depends on audit@
p << setter.p;
f << setter.f;
@@

emit(p, 'setter', '%s()' % f)

@script:python depends on audit@
p << abimode.ap;
f << abimode.f;
m << abimode.m;
@@

emit(p, 'helper', '%s(..., %s)' % (f, m))

@script:python depends on audit@
p << helper.p;
f << helper.f;
@@

emit(p, 'helper', '%s()' % f)

@script:python depends on report || audit@
p << unconv.p;
rd << unconv.rd;
cv << unconv.cv;
c << unconv.c;
@@

emit(p, 'unchecked', '%s() copy reaches %s() at line %s with no check' %
     (rd, cv, c[0].line))

@script:python depends on org@
p << unconv.p;
rd << unconv.rd;
cv << unconv.cv;
c << unconv.c;
@@

emit_org(p, 'unchecked', '%s() copy reaches %s() at line %s with no check' %
	 (rd, cv, c[0].line))

@script:python depends on report || audit@
p << unstored.p;
rd << unstored.rd;
@@

emit(p, 'unchecked', '%s() copy is stored with no check' % rd)

@script:python depends on org@
p << unstored.p;
rd << unstored.rd;
@@

emit_org(p, 'unchecked', '%s() copy is stored with no check' % rd)

@script:python depends on report || audit@
p << uncall.p;
rd << uncall.rd;
f << cvparam.f;
cv << cvparam.cv;
c << cvparam.c;
@@

emit(p, 'unchecked', '%s() copy reaches %s() in %s() at line %s with no check' %
     (rd, cv, f, c[0].line))

@script:python depends on org@
p << uncall.p;
rd << uncall.rd;
f << cvparam.f;
cv << cvparam.cv;
c << cvparam.c;
@@

emit_org(p, 'unchecked', '%s() copy reaches %s() in %s() at line %s with no check' %
	 (rd, cv, f, c[0].line))

@script:python depends on report || audit@
p << unmember.p;
@@

emit(p, 'unchecked', 'copy_from_user() copy of member %s is converted with no check' %
     member_of(p))

@script:python depends on org@
p << unmember.p;
@@

emit_org(p, 'unchecked', 'copy_from_user() copy of member %s is converted with no check' %
	 member_of(p))

@script:python depends on report || audit@
p << shread.p;
@@

emit(p, 'unchecked', 'READ_ONCE() copy of a shared timespec is used with no check')

@script:python depends on org@
p << shread.p;
@@

emit_org(p, 'unchecked', 'READ_ONCE() copy of a shared timespec is used with no check')
