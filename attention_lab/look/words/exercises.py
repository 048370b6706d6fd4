# ruff: noqa: E501  (one entry a line: prose in two languages)
"""The words of the exercises' checker ("ex.…"): what `ex.check`, `ex.hint` and `ex.solution` say.

Code is written between backticks: HTML shows it as <code>, plain text drops the backticks. {what} is how the
learner's value is named: `answer`, or `answer(tr)` when the answer is a function. No entry names the expected value,
shape or expression: feedback says what the answer given is and which step to take, never the result.
"""

WORDS = {
    # the state of an exercise
    'ex.unanswered': ('아직 답이 없습니다({task}). `{template}`의 `...`를 답을 계산하는 코드로 바꾸고 셀을 다시 실행하세요.', 'No answer yet ({task}). Replace the `...` in `{template}` with code that computes it, then run the cell again.'),
    'ex.right': ('✓ 정답입니다!', '✓ Correct!'),
    'ex.right_hidden': ('✓ 정답입니다! 보이지 않는 다른 예시에서도 같은 코드가 맞는 값을 냅니다.', '✓ Correct! The same code gives the right value on another example you do not see, too.'),
    'ex.not_yet': ('✗ 아직 정답이 아닙니다.', '✗ Not yet.'),
    'ex.hint_1': ('힌트: {hint}', 'Hint: {hint}'),
    'ex.hint_2': ('더 자세한 힌트: {hint}', 'A closer hint: {hint}'),
    'ex.stuck': ('막히면 `ex.solution("{id}", lang="ko")`로 해답을 볼 수 있습니다.', 'Stuck? `ex.solution("{id}", lang="en")` shows a solution.'),
    'ex.solution_title': ('해답 — 연습 {id}', 'Solution — exercise {id}'),
    # the method, checked on an example the learner does not see
    'ex.only_here': ('✗ 이 예시에서는 값이 맞지만, 보이지 않는 다른 예시에서는 같은 코드가 틀린 값을 냅니다. 우연히 맞은 것입니다. 숫자를 직접 쓰거나 앞에서 만든 변수를 쓰지 말고, 함수가 받는 인자(`{names}`)로 계산하세요.', '✗ The value is right on this example, but the same code gives a wrong value on another example you do not see: it matched by chance. Compute from what the function receives, `{names}`, not from numbers typed in or variables made earlier.'),
    'ex.hidden_error': ('✗ 이 예시에서는 값이 맞지만, 보이지 않는 다른 예시에서는 같은 코드가 오류를 냅니다({error}: {message}). 함수가 받는 인자(`{names}`)로 계산하세요.', '✗ The value is right on this example, but on another example you do not see the same code raises an error ({error}: {message}). Compute from what the function receives, `{names}`.'),
    'ex.not_a_function': ('✗ `answer`가 함수가 아니라 값입니다. 이 연습은 계산하는 방법까지 확인하므로, 코드 앞의 `lambda {names}:` 부분을 남겨 두세요: `answer = lambda {names}: (코드)`', '✗ `answer` is a value, not a function. This exercise checks how you compute it, so keep `lambda {names}:` in front of your code: `answer = lambda {names}: <your code>`.'),
    'ex.signature': ('✗ `answer`는 함수여야 하고, 받는 인자는 `{names}`입니다: `answer = lambda {names}: (코드)`', '✗ `answer` must be a function of `{names}`: `answer = lambda {names}: <your code>`.'),
    # slips: the learner's code raised an error
    'ex.slip_matmul': ('✗ `@`로 곱할 수 없습니다. 왼쪽 배열의 열 수({left})와 오른쪽 배열의 행 수({right})가 같아야 합니다. `.T`로 행과 열을 바꾸는 것을 잊지 않았나요?', "✗ `@` cannot multiply these: the left array's columns ({left}) must match the right array's rows ({right}). Is a `.T` missing?"),
    'ex.slip_broadcast': ('✗ 모양이 {shapes}인 배열들은 칸끼리 짝지을 수 없습니다(broadcast). 고른 행과 열을 다시 보세요. 곱해서 더하는 계산은 `@`가 한 번에 합니다.', '✗ Arrays of shapes {shapes} cannot be paired entry by entry (broadcast): check the rows and columns you picked. `@` multiplies and adds in one go.'),
    'ex.slip_join': ('✗ 이어 붙이려는 배열들의 모양이 맞지 않습니다({message}). 이어 붙이는 축 말고는 길이가 같아야 합니다.', '✗ The arrays to join do not fit together ({message}): every axis but the one they are joined along must have the same length.'),
    'ex.slip_index': ('✗ 인덱스 {index}: 길이가 {size}인 축을 벗어납니다. 인덱스는 0부터 세므로 가장 큰 인덱스는 길이보다 1 작습니다.', '✗ Index {index} is past the end of an axis of length {size}: indices count from 0, so the last one is one less than the length.'),
    'ex.slip_indices': ('✗ 인덱스가 너무 많습니다. 이 배열의 축은 {axes}개인데 인덱스를 {given}개 썼습니다.', '✗ Too many indices: this array has {axes} axes, and you gave {given}.'),
    'ex.slip_field': ('✗ `tr`에 없는 이름입니다: `{name}`. 비슷한 이름은 `{close}`입니다.', '✗ `tr` has no `{name}`. Did you mean `{close}`?'),
    'ex.slip_field_unknown': ('✗ `tr`에 없는 이름입니다: `{name}`. `tr`의 배열: {fields}', '✗ `tr` has no `{name}`. The arrays of `tr`: {fields}'),
    'ex.withheld': ('✗ `tr.{name}`: 이 연습이 주지 않는 배열입니다. 이 연습이 주는 배열은 {fields}(그리고 T, d, h, dh 같은 크기)뿐입니다. 이 연습이 계산할 값이거나 그 뒤 단계이므로, 주어진 배열로 직접 계산하세요.', '✗ This exercise does not hand out `tr.{name}`: it gives only {fields} (and the sizes, such as T, d, h, dh). `tr.{name}` is what you are asked to compute, or a later stage: compute it from what you are given.'),
    'ex.slip_read_only': ('✗ 받은 배열을 제자리에서 바꾸려 했습니다(`-=`, `[...] =` 같은 대입). 받은 인자(`{names}`)는 읽기 전용입니다. `x = x - x.max()`처럼 새 배열을 만들어 계산하세요.', '✗ You changed an array you were given in place (`-=`, `[...] =`); what the function receives, `{names}`, is read-only. Make a new array instead, as in `x = x - x.max()`.'),
    'ex.forbidden': ('✗ 이 연습은 `{name}`을 쓰지 않고 직접 계산하는 연습입니다. 라이브러리 함수 대신 `np.exp`, `.sum()`, `.max()` 같은 기본 연산으로 계산하세요.', '✗ This exercise asks you to compute it yourself, without `{name}`: use plain operations such as `np.exp`, `.sum()` and `.max()` instead of a library function.'),
    'ex.slip_name': ('✗ 정의되지 않은 이름입니다: `{name}`. 함수가 받는 인자(`{names}`)와 `np`, `al`로 계산하세요.', '✗ `{name}` is not defined: compute from what the function receives, `{names}`, with `np` and `al`.'),
    'ex.slip_other': ('✗ 코드를 실행하다가 오류가 났습니다({error}: {message}).', '✗ Your code raised an error ({error}: {message}).'),
    # answers that are not of the right kind
    'ex.what_value': ('`answer`', '`answer`'),
    'ex.quoted': ('✗ {what}의 값이 문자열(`{shown}`)입니다. 따옴표를 빼고 숫자로 쓰세요.', '✗ {what} is text, `{shown}`: write the numbers without quotes.'),
    'ex.text': ('✗ {what}의 값이 문자열(`{shown}`)입니다. 따옴표 없이, 답을 계산하는 코드를 쓰세요.', '✗ {what} is text, `{shown}`: write code that computes the answer, without quotes.'),
    'ex.text_inside': ('✗ {what} 안에 문자열(`{shown}`)이 있습니다. 따옴표 없이 숫자로 쓰세요.', '✗ {what} holds text, `{shown}`: write numbers, without quotes.'),
    'ex.none': ('✗ {what}의 값이 None입니다. 값을 돌려주지 않는 코드입니다(`print()`나, 리스트·배열을 제자리에서 바꾸는 메서드는 None을 돌려줍니다). 답을 계산하는 코드를 쓰세요.', '✗ {what} is None: the code gave no value (`print()`, and methods that change a list or an array in place, give None). Write code that computes the answer.'),
    'ex.none_inside': ('✗ {what} 안에 None이 있습니다. 값은 모두 숫자여야 합니다.', '✗ {what} holds None; every value must be a number.'),
    'ex.bool': ('✗ {what}의 값이 숫자가 아니라 참/거짓 값(bool) `{shown}`입니다.', '✗ {what} is `{shown}`, a truth value (bool), not a number.'),
    'ex.bools': ('✗ {what}에 숫자가 아니라 참/거짓 값(True/False)이 들어 있습니다. 답은 숫자로 씁니다.', '✗ {what} holds truth values (True/False), not numbers.'),
    'ex.complex': ('✗ {what}에 복소수(`{shown}`)가 있습니다. 답에는 허수부가 없습니다.', '✗ {what} holds a complex number, `{shown}`; the answer has no imaginary part.'),
    'ex.too_large': ('✗ {what}에 float로 나타낼 수 없을 만큼 큰 수가 있습니다(약 1.8 × 10³⁰⁸ 초과).', '✗ {what} holds a number too large for a float (beyond about 1.8 × 10³⁰⁸).'),
    'ex.nan': ('✗ {what}에 NaN(not a number)이 있습니다. 0/0, ∞ − ∞, 넘친 exp에서 나오는 값이고, 답에는 NaN이 없습니다.', '✗ {what} holds NaN (not a number), what 0/0, ∞ − ∞ or an overflowing exp give; the answer has no NaN.'),
    'ex.inf': ('✗ {what}에 무한대(∞)가 있습니다. 이 답의 값은 모두 유한합니다.', '✗ {what} holds ∞; every value of this answer is finite.'),
    'ex.ragged': ('✗ {what}의 행 길이가 서로 다릅니다(`{shown}`).', '✗ {what} is a list whose rows differ in length, `{shown}`.'),
    'ex.callable': ('✗ {what}의 값이 함수나 메서드 `{shown}` 자체입니다. `()`를 붙여 호출한 결과를 쓰세요.', '✗ {what} is the function or method `{shown}` itself, not its result: call it with `()`.'),
    'ex.other': ('✗ {what}의 타입이 숫자가 아니라 `{shown}`입니다.', '✗ {what} has the type `{shown}`, not a number.'),
    'ex.masked': ('✗ {what}의 값이 NumPy masked array입니다. 가려진 칸도 숫자로 읽히므로 받지 않습니다. `np.ma` 없이 보통의 배열로 쓰세요(또는 `.filled(값)`).', '✗ {what} is a NumPy masked array, refused: its hidden entries would be read as numbers. Write a plain array, without `np.ma` (or with `.filled(value)`).'),
    'ex.wrong_shape': ('✗ {what}의 값은 {got_form}인데, 답의 모양은 이와 다릅니다. 연습이 묻는 것이 행 하나인지, 열인지, 행렬 전체인지 다시 보세요.', '✗ {what} is {got_form}, which is not the shape of the answer: check whether the task asks for a row, a column or a whole matrix.'),
    # shapes
    'ex.one_number': ('✗ {what}의 값이 숫자 하나(`{shown}`)입니다. 모양은 배열의 `.shape`처럼 숫자들의 튜플입니다.', "✗ {what} is one number, `{shown}`; a shape is a tuple of numbers, like an array's `.shape`."),
    'ex.array_not_shape': ('✗ {what}의 값이 배열입니다. 배열이 아니라 그 모양을 답하세요(`.shape`).', '✗ {what} is an array, not a shape: answer with its shape (`.shape`).'),
    'ex.nested': ('✗ {what}의 값이 중첩되어 있습니다(`{shown}`). 모양은 중첩되지 않은 숫자들의 튜플입니다.', '✗ {what} is nested, `{shown}`; a shape is a flat tuple of numbers.'),
    'ex.not_whole': ('✗ {what}에 정수가 아닌 수(`{shown}`)가 있습니다. 모양의 수는 모두 정수입니다.', '✗ {what} holds a number that is not whole, `{shown}`; every number of a shape is whole.'),
    'ex.shape_length': ('✗ {what}의 값은 숫자 {n}개로 된 모양 {got}인데, 답의 모양은 숫자의 개수가 다릅니다. 모양에는 배열의 축마다 숫자가 하나씩 있습니다.', "✗ {what} is a shape of {n} numbers, {got}, but the answer's shape has another count of numbers: one per axis of the array."),
    # what an array answer is, in words
    'ex.form_number': ('숫자 하나', 'one number'),
    'ex.form_numbers': ('숫자 {n}개', '{n} numbers'),
    'ex.form_matrix': ('{rows} × {cols} 배열', 'a {rows} × {cols} array'),
    'ex.form_array': ('모양이 {shape}인 배열', 'an array of shape {shape}'),
    # the drills: exercises done by hand on a page without Python (live/drills.js shows them)
    'drill.title': ('손으로 풀기 (Python 없이 이 페이지에서)', 'By hand (on this page, no Python needed)'),
    'drill.task': ('아래 예시의 숫자로 직접 계산해 칸에 적고 확인을 누르세요.', 'Compute it by hand from the example below, type it into the fields, and press Check.'),
    'drill.seed': ('예시 번호', 'Example number'),
    'drill.new': ('다른 예시', 'Another example'),
    'drill.check': ('확인', 'Check'),
    'drill.hint': ('힌트', 'Hint'),
    'drill.right': ('✓ 정답입니다!', '✓ Correct!'),
    'drill.not_yet': ('✗ 아직 정답이 아닙니다.', '✗ Not yet.'),
    'drill.unreadable': ('✗ 칸 {n}: 숫자로 읽을 수 없습니다. 숫자를 적으세요(−∞는 -inf).', '✗ Field {n} is not a number: type a number (−∞ as -inf).'),
    'drill.count': ('✗ 모든 칸을 채우세요.', '✗ Fill in every field.'),
    'drill.answer': ('답', 'Answer'),
    'drill.field': ('칸', 'field'),
    'drill.infinity': ('−∞는 -inf로 적습니다.', 'Type −∞ as -inf.'),
    'drill.shown': ('예시 {seed}', 'Example {seed}'),
}
