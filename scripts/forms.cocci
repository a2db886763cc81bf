// The semantic patch of the audit's forms phase (docs/audit.md, "Other
// timeout forms"): the timeouts that are not timespecs.  scripts/audit.py
// runs it, with the macro file of scripts/audit.sh, on the files that git
// grep selects (the FORMS_* patterns of scripts/tsanity/audit/forms.py),
// and keeps a "use" only if its variable is copied from user space (a
// "copy" line) in the same function, or a variable of the same type is, in
// the same file.
// Never a patch for the kernel: the series' timespec64_timeout.cocci is the
// kernel's rule; this one finds what that one does not look at.
//
// Every line printed is
//   FORM <kind> <file> <line> <function> <variable> <type> <detail>
// separated by tabs, <type> being the variable's declared type, and kind:
//  use      a read of S.F, S->F, S.G.F or S->G.F (S a variable, F a field
//           named like a timeout: tv_usec, sec, nsec, usec, msec, *_sec,
//           *_nsec, *_usec, *_msec, *_ms, *_us, *_ns, *timeo*, *linger*)
//           in a condition or a conversion: an operand of a comparison,
//           of arithmetic or of && / || (with or without a cast), !E,
//           E ? : , an if or while condition, an argument of a function
//           (not of a print or copy-out function: pr_*, dev_*, printk,
//           trace_*, seq_*, put_user, copy_to_user, memcpy...), or the whole
//           value put into a local (x = S.F, T x = S.F).  Writes (S.F = E,
//           &S.F) and copies into another structure (a.b = S.F, an
//           initialiser) are outputs and are not reported.  tv_sec and
//           tv_nsec are left to timespec64_timeout.cocci.  Detail: G.F or F.
//  getuser  get_user(E, &S->F) (or __get_user, or the other forms of S.F
//           above): one field copied in.  Detail: G.F or F.
//  copy     S copied from user space: copy_from_user(), copy_from_sockptr(),
//           copy_safe_from_sockptr(), sock_copy_user_timeval(),
//           memcpy_from_msg() or copy_struct_from_user() into &S, (cast)&S
//           or S.  Detail: the function.
//  scalar   a function with a non-pointer parameter named tv_usec: a
//           timeval passed as two integers (lp, ppdev).  Variable and type:
//           the parameter's.
//  syscall  SYSCALL_DEFINEn / COMPAT_SYSCALL_DEFINEn (sys_x, compat_sys_x
//           by the macro file) with a parameter named like a timeout
//           (*timeout*, *msec*, *usec*, seconds, secs) whose type is neither
//           a pointer nor a structure.  Variable and type: the parameter's.
//
// A cast pattern (T)E also matches E without a cast (spatch's drop_cast
// isomorphism), so each context is written once, with the cast.  Each
// context is a rule of its own: one disjunction of them all is twice as
// slow.

@initialize:python@
@@
def emit(kind, p, var, vtype, detail):
	print('FORM\t%s\t%s\t%s\t%s\t%s\t%s\t%s' % (
		kind, p[0].file, p[0].line, p[0].current_element, var, vtype,
		detail))

def use(kind, p, S, TS, F, G):
	if F not in ('tv_sec', 'tv_nsec'):
		emit(kind, p, S, TS, '%s.%s' % (G, F) if G else F)

// A field read as the left operand of a binary operator.
@left@
type T;
type TS;
idexpression TS S;
identifier F =~ "^(tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs)$|_(sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)$|timeo|linger";
identifier G;
binary operator b = {<,<=,>,>=,==,!=,*,/,%,+,-,&&,||};
expression E;
position p;
@@
 (T)\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\) b E

@script:python@
p << left.p;
S << left.S;
TS << left.TS;
F << left.F;
G << left.G = "";
@@
use('use', p, S, TS, F, G)

// ... as the right operand.
@right@
type T;
type TS;
idexpression TS S;
identifier F =~ "^(tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs)$|_(sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)$|timeo|linger";
identifier G;
binary operator b = {<,<=,>,>=,==,!=,*,/,%,+,-,&&,||};
expression E;
position p;
@@
 E b (T)\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\)

@script:python@
p << right.p;
S << right.S;
TS << right.TS;
F << right.F;
G << right.G = "";
@@
use('use', p, S, TS, F, G)

// ... negated, or as the condition of ?:.
@test@
type TS;
idexpression TS S;
identifier F =~ "^(tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs)$|_(sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)$|timeo|linger";
identifier G;
expression E1, E2;
position p;
@@
(
 !\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\)
|
 \(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\) ? E1 : E2
)

@script:python@
p << test.p;
S << test.S;
TS << test.TS;
F << test.F;
G << test.G = "";
@@
use('use', p, S, TS, F, G)

// ... as the condition of an if or a while.
@cond@
type TS;
idexpression TS S;
identifier F =~ "^(tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs)$|_(sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)$|timeo|linger";
identifier G;
statement S1, S2;
position p;
@@
(
 if (\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\)) S1 else S2
|
 if (\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\)) S1
|
 while (\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\)) S1
)

@script:python@
p << cond.p;
S << cond.S;
TS << cond.TS;
F << cond.F;
G << cond.G = "";
@@
use('use', p, S, TS, F, G)

// ... as an argument of a function that is not an output.
@arg@
type T;
type TS;
idexpression TS S;
identifier F =~ "^(tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs)$|_(sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)$|timeo|linger";
identifier G;
identifier fn !~ "^(pr_|dev_|netdev_|printk|trace_|seq_|snprintf|sprintf|scnprintf|WARN|put_user|__put_user|unsafe_put_user|copy_to_user|memcpy|memset)";
position p;
@@
 fn(..., (T)\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\), ...)

@script:python@
p << arg.p;
S << arg.S;
TS << arg.TS;
F << arg.F;
G << arg.G = "";
@@
use('use', p, S, TS, F, G)

// ... put whole into a local.
@into@
type T;
type TS;
idexpression TS S;
idexpression x;
identifier F =~ "^(tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs)$|_(sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)$|timeo|linger";
identifier G;
position p;
@@
 x = (T)\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\)

@script:python@
p << into.p;
S << into.S;
TS << into.TS;
F << into.F;
G << into.G = "";
@@
use('use', p, S, TS, F, G)

@decl@
type T, T3;
type TS;
idexpression TS S;
identifier F =~ "^(tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs)$|_(sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)$|timeo|linger";
identifier G, x;
position p;
@@
 T3 x = (T)\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\);

@script:python@
p << decl.p;
S << decl.S;
TS << decl.TS;
F << decl.F;
G << decl.G = "";
@@
use('use', p, S, TS, F, G)

@getuser@
type TS;
idexpression TS S;
identifier F =~ "^(tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs)$|_(sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)$|timeo|linger";
identifier G;
identifier gu = {get_user, __get_user};
expression E;
position p;
@@
 gu(E, &\(S->G.F@p\|S.G.F@p\|S->F@p\|S.F@p\))

@script:python@
p << getuser.p;
S << getuser.S;
TS << getuser.TS;
F << getuser.F;
G << getuser.G = "";
@@
use('getuser', p, S, TS, F, G)

@copy@
type T;
type TS;
idexpression TS S;
identifier cf = {copy_from_user, copy_from_sockptr, copy_safe_from_sockptr,
		 sock_copy_user_timeval, memcpy_from_msg, copy_struct_from_user};
position p;
@@
(
 cf@p((T)&S, ...)
|
 cf@p(S, ...)
)

@script:python@
p << copy.p;
S << copy.S;
TS << copy.TS;
cf << copy.cf;
@@
emit('copy', p, S, TS, cf)

@scalar@
identifier f, u = tv_usec;
type T;
position p;
@@
 f(..., T u@p, ...) { ... }

@script:python@
p << scalar.p;
u << scalar.u;
T << scalar.T;
@@
if '*' not in T:
	emit('scalar', p, u, T, '')

// The parameter's position, not the function's: a function that
// SYSCALL_DEFINEn defines is placed in the macro file.
@syscall@
identifier f =~ "^(compat_)?sys_";
identifier t =~ "timeout|msec|usec|^seconds$|^secs$";
type T;
position p;
@@
 f(..., T t@p, ...) { ... }

@script:python@
p << syscall.p;
t << syscall.t;
T << syscall.T;
@@
if '*' not in T and 'struct' not in T:
	emit('syscall', p, t, T, '')
