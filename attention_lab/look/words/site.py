# ruff: noqa: E501  (one entry a line: prose in two languages)
"""The words of the course site (`python -m attention_lab.site`): its index pages, navigation and notes."""

WORDS = {
    'site_name': ('attention-lab: Core Attention 노트북', 'attention-lab: the Core Attention notebooks'),
    'site_language': ('한국어', 'English'),
    'site_intro': ('Core Attention 글의 짝인 노트북들입니다. 글과 같은 예시(T = 3, d = 8, h = 2)를 같은 순서로 따라가며 점수 행렬 S = QKᵀ, √dh로 나누기, 마스크 M, Softmax로 얻는 가중치 P, Value의 가중합 O = PV, head별 결과를 이어 붙이는 Concat까지 한 단계씩 계산합니다. 이 사이트의 그림과 숫자는 실행한 노트북에 저장된 출력이고, 탐색기와 단계 위젯은 Python 없이 이 페이지에서 움직입니다.', 'Notebooks that accompany the Core Attention article. They follow its example (T = 3, d = 8, h = 2) in its order, one stage at a time: the scores S = QKᵀ, the division by √dh, the mask M, the weights P from the softmax, the weighted sum of the Values O = PV, and the Concat of the heads. The figures and numbers on this site are the stored outputs of the executed notebooks; the explorers and step widgets move in the page, with no Python.'),
    'site_contents': ('차례', 'Contents'),
    'site_home': ('차례', 'Contents'),
    'site_previous': ('이전', 'Previous'),
    'site_next': ('다음', 'Next'),
    'site_other_edition': ('이 노트북의 영어판', 'This notebook in Korean'),
    'site_other_index': ('영어판 차례', 'The Korean edition'),
    'site_run': ('Binder에서 실행하기', 'Run this notebook on Binder'),
    'site_run_index': ('Binder에서 JupyterLab 열기', 'Open JupyterLab on Binder'),
    'site_run_note': ('Binder에서 이 노트북을 JupyterLab으로 엽니다. 처음 열 때는 몇 분 걸릴 수 있습니다.', 'Binder opens this notebook in JupyterLab; the first start can take a few minutes.'),
    'site_static_widget': ('이 위젯은 이 페이지에서 움직이지 않습니다: 저장된 노트북에 브라우저가 그릴 수 있는 위젯 상태가 없습니다 ({what}). 위의 그림이 같은 값을 보여 주고, 노트북을 실행하면 위젯이 나타납니다.', 'This widget does not move on this page: the stored notebook holds no widget state the browser can draw ({what}). The figure above shows the same values; run the notebook to get the widget.'),
    'site_code': ('코드', 'code'),
    'site_output': ('출력', 'output'),
    'site_both': ('한국어 / English', '한국어 / English'),
    'theme_dark': ('어둡게 보기', 'Dark theme'),
    'site_search': ('검색', 'Search'),
    'site_search_label': ('두 판의 노트북에서 검색', 'Search both editions'),
    'site_on_this_page': ('이 페이지에서', 'On this page'),
    'site_download': ('.ipynb 내려받기', 'Download .ipynb'),
    'site_copy': ('복사', 'Copy'),
    'site_copied': ('복사했습니다', 'Copied'),
    'site_menu': ('차례 보기', 'Contents'),
}
